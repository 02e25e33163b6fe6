import type { Catalogue } from "./en";

export const fr: Catalogue = {
  "document.title": "Signer : {title} · Countersign",
  "language.label": "Langue",
  "common.tryAgain": "Réessayer",
  "common.cancel": "Annuler",
  "common.close": "Fermer",
  "common.required": "(obligatoire)",
  "common.somethingWrong": "Un problème est survenu. Veuillez réessayer.",
  "common.network": "Impossible de joindre le serveur. Vérifiez votre connexion et réessayez.",
  "loading.title": "Chargement de vos documents…",
  "loading.body": "Cela ne prend qu’un instant.",
  "error.title": "Impossible de charger cette demande de signature",
  "ended.requestTitle": "Cette demande ne peut plus être signée",
  "ended.sessionTitle": "Cette session de signature est terminée",
  "ended.sessionBody":
    "Pour votre sécurité, les sessions de signature expirent. Ouvrez à nouveau le lien reçu par e-mail pour continuer.",
  "redirecting.title": "Terminé. Redirection en cours…",
  "redirecting.body": "Nous vous renvoyons vers le site d’où vous venez.",
  "declined.title": "Vous avez refusé de signer",
  "declined.body":
    "L’expéditeur peut voir que vous avez refusé et pourquoi. Vous n’avez rien d’autre à faire ; vous pouvez fermer cette page.",
  "reassigned.title": "Vous avez attribué cette demande à une autre personne",
  "reassigned.body":
    "Un lien a été envoyé par e-mail à {name} ({email}) pour signer à votre place. L’expéditeur peut voir qui vous avez choisi et pourquoi. Votre lien ne fonctionne plus ; vous pouvez fermer cette page.",
  "signed.title": "Vous avez signé",
  "signed.othersBody":
    "Merci. D’autres personnes doivent encore signer ; nous vous enverrons le document finalisé par e-mail dès que tout le monde aura signé. Vous pouvez fermer cette page.",
  "complete.title": "Le document est finalisé",
  "complete.body": "Tout le monde a signé et le document est scellé. Téléchargez votre copie :",
  "everyoneSigned.title": "Tout le monde a signé",
  "sealing.delayed":
    "Le scellement du document prend plus de temps que prévu. L’expéditeur a été prévenu ; le document finalisé vous sera envoyé par e-mail dès qu’il sera scellé. Vous pouvez fermer cette page.",
  "sealing.body":
    "Scellement du document en cours. Cela prend quelques secondes ; vous pourrez ensuite télécharger votre copie ici.",
  "closed.cancelled.title": "Cette demande a été annulée",
  "closed.cancelled.body": "L’expéditeur a annulé cette demande ; elle ne peut donc plus être signée.",
  "closed.expired.title": "Cette demande a expiré",
  "closed.expired.body": "Elle ne peut plus être signée. Demandez à l’expéditeur de l’envoyer à nouveau.",
  "closed.declined.title": "Cette demande a été refusée",
  "closed.declined.body":
    "Un autre destinataire a refusé de signer ; la demande ne peut donc plus être signée.",
  "closed.completed.title": "Cette demande est finalisée",
  "closed.completed.body": "Tout le monde a signé ; vous n’avez plus rien à signer.",
  "download.signed": "Télécharger le document signé",
  "copy.download": "Télécharger ce que vous avez signé",
  "copy.note":
    "Une copie avec votre signature, à conserver jusqu’à ce que tout le monde ait signé. Le document finalisé, avec son certificat et son sceau, suivra.",
  "gate.title": "Confirmez votre identité",
  "gate.lead":
    "{hasSender, select, yes {{sender} vous invite} other {L’expéditeur vous invite}} à signer <b>{title}</b>. Avant l’affichage du document, saisissez {count, plural, one {le code demandé} other {les codes demandés}}.",
  "gate.accessCode.label": "Code d’accès",
  "gate.accessCode.hint":
    "L’expéditeur vous l’a communiqué par un autre moyen : téléphone, SMS ou courrier. Il ne figure pas dans l’e-mail.",
  "gate.accessCode.missing": "Saisissez le code d’accès que l’expéditeur vous a communiqué.",
  "gate.accessCode.wrong":
    "Ce n’est pas le code d’accès que l’expéditeur vous a communiqué. {left, plural, one {Il vous reste # tentative} other {Il vous reste # tentatives}} avant un blocage de 15 minutes.",
  "gate.emailCode.label": "Code reçu par e-mail",
  "gate.emailCode.sent": "Nous avons envoyé un code à six chiffres à {address}. Il est valable 10 minutes.",
  "gate.emailCode.willSend": "Nous enverrons un code à six chiffres à {address}.",
  "gate.emailCode.yourAddress": "votre adresse",
  "gate.emailCode.missing": "Saisissez le code reçu par e-mail.",
  "gate.emailCode.askFirst": "Demandez d’abord un code, puis saisissez-le ici.",
  "gate.emailCode.wrong":
    "Ce n’est pas le code que nous vous avons envoyé par e-mail. {left, plural, one {Il vous reste # tentative} other {Il vous reste # tentatives}} avant un blocage de 15 minutes.",
  "gate.emailCode.send": "M’envoyer un code",
  "gate.emailCode.sendNew": "Envoyer un nouveau code",
  "gate.continue": "Accéder au document",
  "gate.locked.title": "Trop de codes erronés",
  "gate.locked.body":
    "Pour votre sécurité, cette demande est bloquée jusqu’à <b>{time}</b>. Réessayez à ce moment-là ou demandez le bon code à {hasSender, select, yes {{sender}} other {l’expéditeur}}.",
  "header.skip": "Aller aux documents",
  "header.from": "De <b>{sender}</b>",
  "header.signingAs": "Signature en tant que <b>{name}</b> <muted>({email})</muted>",
  "header.viewingAs": "Consultation en tant que <b>{name}</b> <muted>({email})</muted>",
  "header.messageFrom": "{hasSender, select, yes {Message de {sender}} other {Message de l’expéditeur}}",
  "howTo.title": "Comment signer",
  "howTo.body":
    "Remplissez les champs en surbrillance dans les documents ci-dessous, acceptez de signer électroniquement, puis sélectionnez <b>Terminer</b> en bas de la page.",
  "howTo.requiredMark": "Les champs marqués d’un * sont obligatoires.",
  "viewer.title": "Il vous est demandé de consulter ces documents",
  "viewer.body":
    "Vous n’avez rien à signer. Les ouvrir est votre part, et c’est enregistré : l’expéditeur en est informé. Vous pouvez fermer cette page après les avoir lus.",
  "approver.title": "Il vous est demandé d’approuver ces documents",
  "approver.body":
    "Lisez-les, puis approuvez ou refusez. Vous ne signez rien : votre approbation est enregistrée avec son heure, votre adresse et votre navigateur.",
  "approver.consent":
    "J’accepte que sélectionner « Approuver » vaille approbation électronique de ces documents.",
  "approver.approve": "Approuver",
  "approver.approving": "Approbation…",
  "approved.title": "Vous avez approuvé",
  "header.approvingAs": "Approbation en tant que <b>{name}</b> <muted>({email})</muted>",
  "progress.none": "Aucun champ obligatoire",
  "progress.count":
    "{done, number} sur {total, plural, one {# champ obligatoire rempli} other {# champs obligatoires remplis}}",
  "progress.allDone":
    "{total, plural, one {Le champ obligatoire est rempli.} other {Les # champs obligatoires sont remplis.}}",
  "progress.label": "Champs obligatoires remplis",
  "finish.fillIn":
    "Remplissez encore {count, plural, one {# champ obligatoire} other {# champs obligatoires}} pour terminer.",
  "finish.consent": "Pour terminer, acceptez de signer électroniquement, à côté de « Terminer ».",
  "next.consent":
    "Tous les champs obligatoires sont remplis. Acceptez de signer électroniquement, puis sélectionnez « Terminer ».",
  "next.finish": "Tout est rempli. Sélectionnez « Terminer » pour signer.",
  "actions.label": "Progression et actions de signature",
  "actions.consent":
    "J’accepte de signer électroniquement et reconnais que ma signature électronique a la même valeur juridique que ma signature manuscrite.",
  "actions.decline": "Refuser",
  "actions.next": "Champ suivant",
  "actions.signing": "Signature en cours…",
  "actions.finish": "Terminer",
  "submit.problems":
    "{count, plural, one {# problème à corriger} other {# problèmes à corriger}} avant de signer.",
  "submit.closed": "Cette demande ne peut plus être signée.",
  "applied.again": "{label} en place sur la page {page}. Sélectionnez à nouveau pour modifier.",
  "applied.one": "{label} en place sur la page {page}.",
  "applied.all":
    "{kind, select, initials {Initiales appliquées aux {count} champs d’initiales.} other {Signature appliquée aux {count} champs de signature.}}",
  "zoom.legend": "Zoom du document",
  "zoom.out": "Zoom arrière",
  "zoom.in": "Zoom avant",
  "zoom.fit": "Ajuster à la largeur",
  "document.position": "Document {index} sur {total}",
  "document.pages": "{pages, plural, one {# page} other {# pages}}",
  "document.loadFailed": "Impossible de charger ce document.",
  "page.loading": "Chargement de la page {page}…",
  "page.unavailable": "Page indisponible",
  "page.label": "Page {page} sur {total}",
  "type.signature": "Signature",
  "type.initials": "Initiales",
  "type.date_signed": "Date de signature",
  "type.text": "Texte",
  "type.checkbox": "Case à cocher",
  "type.name": "Nom complet",
  "type.email": "E-mail",
  "field.required": "obligatoire",
  "field.optional": "facultatif",
  "field.described": "{label}, {requirement}, page {page}",
  "field.sign": "Signer",
  "field.initial": "Parapher",
  "field.toSign": "{action} : {label}, {requirement}, page {page}",
  "field.signedTyped": "{text} : {label}, signé, page {page}. Sélectionnez pour modifier",
  "field.signedDrawn": "{label}, signé (tracé à la main), page {page}. Sélectionnez pour modifier",
  "field.dateSigned": "Date de signature, remplie automatiquement lorsque vous terminez, page {page}",
  "filled.by": "{label}, rempli par {name}",
  "filled.byWithValue": "{label}, rempli par {name} : {value}",
  "signature.title": "{kind, select, initials {Adopter vos initiales} other {Adopter votre signature}}",
  "signature.how":
    "{kind, select, initials {Comment créer vos initiales} other {Comment créer votre signature}}",
  "signature.tabType": "Saisir",
  "signature.tabDraw": "Dessiner",
  "signature.typeLabel": "{kind, select, initials {Vos initiales} other {Votre nom complet}}",
  "signature.preview": "Aperçu",
  "signature.drawHint":
    "Dessinez avec votre souris, un stylet ou votre doigt. Au clavier, utilisez l’onglet « Saisir ».",
  "signature.canvas":
    "{kind, select, initials {Zone de dessin pour vos initiales} other {Zone de dessin pour votre signature}}",
  "signature.clear": "Effacer",
  "signature.typeFirst":
    "{kind, select, initials {Saisissez d’abord vos initiales.} other {Saisissez d’abord votre signature.}}",
  "signature.drawFirst":
    "{kind, select, initials {Dessinez d’abord vos initiales dans le cadre, ou utilisez l’onglet « Saisir ».} other {Dessinez d’abord votre signature dans le cadre, ou utilisez l’onglet « Saisir ».}}",
  "signature.applyAll":
    "{kind, select, initials {Appliquer aux {count} champs d’initiales} other {Appliquer aux {count} champs de signature}}",
  "signature.legal":
    "{kind, select, initials {En sélectionnant « Appliquer », vous adoptez ces initiales comme initiales électroniques pour cette demande.} other {En sélectionnant « Appliquer », vous adoptez cette signature comme signature électronique pour cette demande.}}",
  "signature.apply": "Appliquer",
  "decline.title": "Refuser de signer",
  "decline.description":
    "L’expéditeur sera informé de votre refus et de son motif. Vous ne pourrez plus signer cette demande par la suite.",
  "decline.reason": "Motif du refus",
  "decline.characters": "{count, number} / {max, number} caractères",
  "decline.missing": "Veuillez indiquer à l’expéditeur pourquoi vous refusez.",
  "decline.declining": "Refus en cours…",
  "reassign.offer": "Quelqu’un d’autre doit signer ?",
  "reassign.title": "Attribuer à une autre personne",
  "reassign.description":
    "Cette personne recevra par e-mail un lien pour signer à votre place. Votre propre lien cessera de fonctionner, et l’expéditeur verra qui vous avez choisi et pourquoi.",
  "reassign.name": "Nom de la personne",
  "reassign.email": "E-mail de la personne",
  "reassign.reason": "Motif",
  "reassign.nameMissing": "Indiquez le nom de la personne qui signera à votre place.",
  "reassign.emailMissing": "Indiquez son adresse e-mail : c’est là que son lien sera envoyé.",
  "reassign.reasonMissing": "Indiquez le motif à l’expéditeur.",
  "reassign.confirm": "Attribuer",
};
