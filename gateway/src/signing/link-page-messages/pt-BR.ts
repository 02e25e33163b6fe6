import type { Catalogue } from "./en.js";

export const ptBR: Catalogue = {
  brand: "Countersign",
  "tooMany.title": "Muitas tentativas",
  "tooMany.body":
    "Muitos links de assinatura foram abertos a partir do seu endereço. Aguarde {seconds, plural, one {# segundo} other {# segundos}} e abra o link novamente.",
  "invalid.title": "Este link de assinatura não é válido",
  "invalid.body":
    "Verifique se você abriu o endereço completo do e-mail ou peça ao remetente que o envie novamente.",
  "gone.title": "Este link não funciona mais",
  "unavailable.title": "A assinatura não está disponível no momento",
  "unavailable.body": "Não foi possível abrir seu documento. Tente abrir o link novamente em um minuto.",
};
