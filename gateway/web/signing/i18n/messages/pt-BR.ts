import type { Catalogue } from "./en";

export const ptBR: Catalogue = {
  "document.title": "Assinar: {title}",
  "language.label": "Idioma",
  "common.tryAgain": "Tentar novamente",
  "common.cancel": "Cancelar",
  "common.close": "Fechar",
  "common.required": "(obrigatório)",
  "common.somethingWrong": "Algo deu errado. Tente novamente.",
  "common.network": "Não foi possível conectar ao servidor. Verifique sua conexão e tente novamente.",

  "loading.title": "Carregando seus documentos…",
  "loading.body": "Isso leva só um instante.",
  "error.title": "Não foi possível carregar esta solicitação de assinatura",
  "ended.requestTitle": "Esta solicitação não pode mais ser assinada",
  "ended.sessionTitle": "Esta sessão de assinatura foi encerrada",
  "ended.sessionBody":
    "Para sua segurança, as sessões de assinatura expiram. Abra novamente o link do seu e-mail para continuar.",
  "redirecting.title": "Pronto. Levando você de volta…",
  "redirecting.body": "Você está voltando para o site de onde veio.",
  "declined.title": "Você recusou a assinatura",
  "declined.body":
    "O remetente pode ver que você recusou e por quê. Você não precisa fazer mais nada; pode fechar esta página.",
  "reassigned.title": "Você atribuiu esta solicitação a outra pessoa",
  "reassigned.body":
    "{name} ({email}) recebeu por e-mail um link para assinar em seu lugar. O remetente pode ver quem você escolheu e por quê. Seu link não funciona mais; você pode fechar esta página.",

  "signed.title": "Você assinou",
  "signed.othersBody":
    "Obrigado. Outras pessoas ainda precisam assinar; enviaremos o documento concluído por e-mail assim que todos tiverem assinado. Você pode fechar esta página.",
  "complete.title": "O documento está concluído",
  "complete.body": "Todos assinaram, e o documento está selado. Baixe sua cópia:",
  "everyoneSigned.title": "Todos assinaram",
  "sealing.delayed":
    "A selagem do documento está demorando mais do que deveria. O remetente foi avisado; o documento concluído será enviado para você por e-mail assim que for selado. Você pode fechar esta página.",
  "sealing.body":
    "Selando o documento. Isso leva alguns segundos; sua cópia estará disponível para download aqui.",
  "closed.cancelled.title": "Esta solicitação foi cancelada",
  "closed.cancelled.body": "O remetente cancelou esta solicitação, por isso ela não pode mais ser assinada.",
  "closed.expired.title": "Esta solicitação expirou",
  "closed.expired.body": "Ela não pode mais ser assinada. Peça ao remetente que a envie novamente.",
  "closed.declined.title": "Esta solicitação foi recusada",
  "closed.declined.body": "Outro destinatário recusou a assinatura, por isso ela não pode mais ser assinada.",
  "closed.completed.title": "Esta solicitação está concluída",
  "closed.completed.body": "Todos assinaram; não há mais nada para você assinar.",
  "download.signed": "Baixar o documento assinado",
  "copy.download": "Baixar o que você assinou",
  "copy.note":
    "Uma cópia com a sua assinatura, para guardar até que todos tenham assinado. O documento concluído, com certificado e selo, virá em seguida.",

  "gate.title": "Confirme sua identidade",
  "gate.lead":
    "{hasSender, select, yes {{sender} pede que você assine} other {O remetente pede que você assine}} <b>{title}</b>. Antes de o documento ser exibido, informe {count, plural, one {o código solicitado} other {os códigos solicitados}}.",
  "gate.accessCode.label": "Código de acesso",
  "gate.accessCode.hint":
    "O remetente passou este código a você por outro meio: telefone, SMS ou carta. Ele não está no e-mail.",
  "gate.accessCode.missing": "Digite o código de acesso que o remetente passou a você.",
  "gate.accessCode.wrong":
    "Esse não é o código de acesso que o remetente passou a você. {left, plural, one {Resta # tentativa} other {Restam # tentativas}} antes de um bloqueio temporário.",
  "gate.emailCode.label": "Código do seu e-mail",
  "gate.emailCode.sent": "Enviamos um código de seis dígitos para {address}. Ele é válido por 10 minutos.",
  "gate.emailCode.willSend": "Enviaremos um código de seis dígitos para {address}.",
  "gate.emailCode.yourAddress": "seu endereço",
  "gate.emailCode.missing": "Digite o código do e-mail.",
  "gate.emailCode.askFirst": "Primeiro solicite um código e depois digite-o aqui.",
  "gate.emailCode.wrong":
    "Esse não é o código que enviamos para seu e-mail. {left, plural, one {Resta # tentativa} other {Restam # tentativas}} antes de um bloqueio temporário.",
  "gate.emailCode.send": "Enviar um código",
  "gate.emailCode.sendNew": "Enviar um novo código",
  "gate.continue": "Continuar para o documento",
  "gate.locked.title": "Muitos códigos incorretos",
  "gate.locked.body":
    "Para sua segurança, esta solicitação está bloqueada até <b>{time}</b>. Tente novamente nesse horário ou peça o código correto {hasSender, select, yes {a {sender}} other {ao remetente}}.",

  "header.skip": "Pular para os documentos",
  "header.from": "De <b>{sender}</b>",
  "header.signingAs": "Assinando como <b>{name}</b> <muted>({email})</muted>",
  "header.viewingAs": "Visualizando como <b>{name}</b> <muted>({email})</muted>",
  "header.messageFrom": "{hasSender, select, yes {Mensagem de {sender}} other {Mensagem do remetente}}",
  "howTo.title": "Como assinar",
  "howTo.body":
    "Preencha os campos destacados nos documentos abaixo, aceite assinar eletronicamente e selecione <b>Concluir</b> no fim da página.",
  "howTo.requiredMark": "Os campos marcados com * são obrigatórios.",
  "test.notice":
    "Um teste: estes documentos foram enviados para experimentar o serviço. Assiná-los não obriga ninguém.",
  "viewer.title": "Pedimos que você veja estes documentos",
  "viewer.body":
    "Não há nada para assinar. Abri-los é a sua parte, e isso fica registrado: o remetente foi avisado. Você pode fechar esta página depois de lê-los.",
  "approver.title": "Pedimos que você aprove estes documentos",
  "approver.body":
    "Leia-os e depois aprove ou recuse. Você não assina nada: sua aprovação é registrada com o horário, seu endereço e seu navegador.",
  "approver.consent": "Concordo que selecionar “Aprovar” é a minha aprovação eletrônica destes documentos.",
  "approver.approve": "Aprovar",
  "approver.approving": "Aprovando…",
  "approved.title": "Você aprovou",
  "header.approvingAs": "Aprovando como <b>{name}</b> <muted>({email})</muted>",

  "progress.none": "Nenhum campo obrigatório",
  "progress.count":
    "{done, number} de {total, plural, one {# campo obrigatório preenchido} other {# campos obrigatórios preenchidos}}",
  "progress.allDone":
    "{total, plural, one {O campo obrigatório foi preenchido.} other {Todos os # campos obrigatórios foram preenchidos.}}",
  "progress.label": "Campos obrigatórios preenchidos",
  "finish.fillIn":
    "Preencha {count, plural, one {mais # campo obrigatório} other {mais # campos obrigatórios}} para concluir.",
  "finish.consent": "Para concluir, aceite assinar eletronicamente, ao lado de Concluir.",
  "next.consent":
    "Todos os campos obrigatórios foram preenchidos. Aceite assinar eletronicamente e selecione Concluir.",
  "next.finish": "Tudo foi preenchido. Selecione Concluir para assinar.",
  "actions.label": "Progresso e ações de assinatura",
  "actions.consent":
    "Concordo em assinar eletronicamente e que minha assinatura eletrônica tem o mesmo valor legal que minha assinatura manuscrita.",
  "actions.consentAll": "Ler tudo",
  "actions.decline": "Recusar",
  "actions.next": "Próximo campo",
  "actions.signing": "Assinando…",
  "actions.finish": "Concluir",
  "submit.problems":
    "{count, plural, one {# problema a corrigir} other {# problemas a corrigir}} antes de assinar.",
  "submit.closed": "Esta solicitação não pode mais ser assinada.",

  "applied.again": "{label}: aplicado na página {page}. Selecione novamente para alterar.",
  "applied.one": "{label}: aplicado na página {page}.",
  "applied.all":
    "{kind, select, initials {Iniciais aplicadas a todos os {count} campos de iniciais.} other {Assinatura aplicada a todos os {count} campos de assinatura.}}",

  "zoom.legend": "Zoom do documento",
  "zoom.out": "Diminuir zoom",
  "zoom.in": "Aumentar zoom",
  "zoom.fit": "Ajustar à largura",

  "document.position": "Documento {index} de {total}",
  "document.pages": "{pages, plural, one {# página} other {# páginas}}",
  "document.loadFailed": "Não foi possível carregar este documento.",
  "page.loading": "Carregando a página {page}…",
  "page.unavailable": "Página indisponível",
  "page.label": "Página {page} de {total}",

  "inPerson.title": "Assinatura presencial",
  "inPerson.body":
    "<b>{host}</b> está conduzindo esta assinatura neste dispositivo. Entregue-o a <b>{name}</b>, que vai assinar.",
  "inPerson.continue": "Sou {name}: continuar",
  "header.hostedBy": "Presencial, conduzida por <b>{host}</b>",

  "type.signature": "Assinatura",
  "type.initials": "Iniciais",
  "type.date_signed": "Data da assinatura",
  "type.text": "Texto",
  "type.checkbox": "Caixa de seleção",
  "type.name": "Nome completo",
  "type.email": "E-mail",
  "type.date": "Data",
  "type.number": "Número",
  "type.dropdown": "Seleção",
  "type.radio": "Opção",
  "type.attachment": "Anexo",

  "field.required": "obrigatório",
  "field.optional": "opcional",
  "field.described": "{label}, {requirement}, página {page}",
  "field.sign": "Assinar",
  "field.initial": "Rubricar",
  "field.toSign": "{action}: {label}, {requirement}, página {page}",
  "field.signedTyped": "{text}: {label}, assinado, página {page}. Selecione para alterar",
  "field.signedDrawn": "{label}, assinado (desenhado), página {page}. Selecione para alterar",
  "field.dateSigned": "Data da assinatura, preenchida automaticamente quando você concluir, página {page}",
  "field.choose": "Escolher…",
  "field.pickDate": "Escolher uma data",
  "field.pickedDate": "{date}: {label}, {requirement}, página {page}. Selecione para alterar",
  "field.toPickDate": "Escolher uma data: {label}, {requirement}, página {page}",
  "field.numberHint":
    "{label}, um número{range, select, both { de {min} a {max}} min { de no mínimo {min}} max { de no máximo {max}} other {}}, {requirement}, página {page}",
  "field.notANumber": "Digite um número, como 42 ou 3,5.",
  "field.tooSmall": "Digite {min} ou mais.",
  "field.tooLarge": "Digite {max} ou menos.",
  "field.radioOption": "{option}, {label}, {requirement}, página {page}",
  "field.groupCount":
    "{least, plural, =0 {} one {Marque pelo menos # caixa.} other {Marque pelo menos # caixas.}}{most, plural, =0 {} one { Marque no máximo # caixa.} other { Marque no máximo # caixas.}}",
  "field.attach": "Anexar um arquivo",
  "field.attaching": "Anexando…",
  "field.toAttach": "Anexar um arquivo: {label}, {requirement}, página {page}",
  "field.attachedFile": "{filename}: {label}, anexado, página {page}. Selecione para substituir",
  "attach.tooLarge": "Este arquivo tem mais de 10 MB. Anexe um arquivo menor.",
  "attach.wrongType": "Anexe um PDF ou uma imagem PNG ou JPEG.",
  "attach.failed": "Não foi possível anexar o arquivo. Tente novamente.",
  "date.title": "Escolher uma data",
  "date.apply": "Aplicar",
  "date.clear": "Limpar",
  "filled.by": "{label}, preenchido por {name}",
  "filled.byWithValue": "{label}, preenchido por {name}: {value}",

  "signature.title": "{kind, select, initials {Adote suas iniciais} other {Adote sua assinatura}}",
  "signature.how": "{kind, select, initials {Como criar suas iniciais} other {Como criar sua assinatura}}",
  "signature.tabType": "Digitar",
  "signature.tabDraw": "Desenhar",
  "signature.typeLabel": "{kind, select, initials {Suas iniciais} other {Seu nome completo}}",
  "signature.preview": "Pré-visualização",
  "signature.drawHint":
    "Desenhe com o mouse, a caneta ou o dedo. Quem usa o teclado pode usar a guia Digitar.",
  "signature.canvas":
    "{kind, select, initials {Área de desenho das suas iniciais} other {Área de desenho da sua assinatura}}",
  "signature.clear": "Limpar",
  "signature.typeFirst":
    "{kind, select, initials {Primeiro, digite suas iniciais.} other {Primeiro, digite sua assinatura.}}",
  "signature.drawFirst":
    "{kind, select, initials {Primeiro, desenhe suas iniciais no quadro ou use a guia Digitar.} other {Primeiro, desenhe sua assinatura no quadro ou use a guia Digitar.}}",
  "signature.applyAll":
    "{kind, select, initials {Aplicar a todos os {count} campos de iniciais} other {Aplicar a todos os {count} campos de assinatura}}",
  "signature.legal":
    "{kind, select, initials {Ao selecionar Aplicar, você adota estas como suas iniciais eletrônicas para esta solicitação.} other {Ao selecionar Aplicar, você adota esta como sua assinatura eletrônica para esta solicitação.}}",
  "signature.apply": "Aplicar",

  "decline.title": "Recusar assinatura",
  "decline.description":
    "O remetente será informado de que você recusou e do seu motivo. Depois disso, você não poderá assinar esta solicitação.",
  "decline.reason": "Motivo da recusa",
  "decline.characters": "{count, number} / {max, number} caracteres",
  "decline.missing": "Informe ao remetente por que você está recusando.",
  "decline.declining": "Recusando…",

  "reassign.offer": "Outra pessoa deve assinar?",
  "reassign.title": "Atribuir a outra pessoa",
  "reassign.description":
    "A pessoa receberá por e-mail um link para assinar em seu lugar. Seu próprio link deixará de funcionar, e o remetente verá quem você escolheu e por quê.",
  "reassign.name": "Nome da pessoa",
  "reassign.email": "E-mail da pessoa",
  "reassign.reason": "Motivo",
  "reassign.nameMissing": "Informe o nome da pessoa que vai assinar em seu lugar.",
  "reassign.emailMissing": "Informe o endereço de e-mail da pessoa: o link dela será enviado para lá.",
  "reassign.reasonMissing": "Informe o motivo ao remetente.",
  "reassign.confirm": "Atribuir",
};
