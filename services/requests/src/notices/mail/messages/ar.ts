import type { Catalogue } from "./en.js";

export const ar: Catalogue = {
  greeting: "مرحبًا {name}،",
  "invitation.subject": "يُرجى التوقيع: {title}",
  "invitation.lead": "{hasSender, select, yes {طلب منك {sender}} other {طُلب منك}} توقيع <b>{title}</b>.",
  "resend.subject": "يُرجى التوقيع: {title}",
  "resend.lead":
    "هذا رابط جديد لتوقيع <b>{title}</b>{hasSender, select, yes { بناءً على طلب {sender}} other {}}.",
  "reminder.subject": "تذكير: يُرجى توقيع {title}",
  "reminder.lead": "تذكير: {hasSender, select, yes {طلب منك {sender}} other {طُلب منك}} توقيع <b>{title}</b>.",
  "expiryWarning.subject": "ينتهي قريبًا: {title}",
  "expiryWarning.lead":
    "تنتهي صلاحية <b>{title}</b>{hasSender, select, yes { من {sender}} other {}} قريبًا وما زالت بانتظارك.",
  "recipientChanged.subject": "يُرجى التوقيع: {title}",
  "recipientChanged.lead":
    "تم تحديث بياناتك في هذا الطلب. {hasSender, select, yes {طلب منك {sender}} other {طُلب منك}} توقيع <b>{title}</b>.",
  "completed.subject": "اكتمل: {title}",
  "completed.lead": "وقّع الجميع على <b>{title}</b>.",
  "completed.attached":
    "المستند الموقّع مرفق. صفحته الأخيرة هي شهادة الإكمال، وهو مختوم بتوقيع رقمي يكشف أي تغيير لاحق.",
  "completed.tooLarge":
    "حجم المستند الموقّع أكبر من أن يُرفق؛ نزّله من خلال الرابط أدناه. صفحته الأخيرة هي شهادة الإكمال.",
  "action.sign": "المراجعة والتوقيع",
  "action.download": "تنزيل المستند الموقّع",
  "review.subject": "يرجى الاطلاع: {title}",
  "review.reminderSubject": "تذكير: يرجى الاطلاع على {title}",
  "review.lead":
    "{hasSender, select, yes {يطلب منك {sender}} other {يُطلب منك}} الاطلاع على <b>{title}</b>. يكفي أن تفتح المستندات.",
  "review.reminderLead":
    "تذكير: {hasSender, select, yes {يطلب منك {sender}} other {يُطلب منك}} الاطلاع على <b>{title}</b>.",
  "action.review": "عرض المستندات",
  "approve.subject": "يرجى الموافقة: {title}",
  "approve.reminderSubject": "تذكير: يرجى الموافقة على {title}",
  "approve.lead":
    "{hasSender, select, yes {يطلب منك {sender}} other {يُطلب منك}} الموافقة على <b>{title}</b>. لن توقّع على شيء: وافق أو ارفض.",
  "approve.reminderLead":
    "تذكير: {hasSender, select, yes {يطلب منك {sender}} other {يُطلب منك}} الموافقة على <b>{title}</b>.",
  "action.approve": "المراجعة والموافقة",
  senderMessage: "رسالة من المرسل:",
  reminderNote: "ملاحظة مرفقة بهذا التذكير:",
  orOpen: "أو افتح هذا العنوان:",
  expires: "تنتهي صلاحية الطلب في {date}.",
  personal: "هذا الرابط خاص بك: يمكن لأي شخص يملكه التوقيع باسمك، لذا لا تُعِد توجيه هذه الرسالة.",
  personalView: "هذا الرابط شخصي: يمكن لأي شخص يملكه فتح المستندات باسمك، لذا لا تُعِد توجيه هذه الرسالة.",
  signOff: "— Countersign",
  sentBy: "أُرسلت بواسطة Countersign",
  "code.subject": "{code} هو رمزك لفتح {title}",
  "code.lead": "رمزك لفتح <b>{title}</b>{hasSender, select, yes { الوارد من {sender}} other {}} هو:",
  "code.works": "هذا الرمز صالح لمدة 10 دقائق، في النافذة التي طلبته منها.",
  "code.stranger":
    "إذا لم تطلب رمزًا، فربما حصل شخص آخر على رابط التوقيع الخاص بك: لا تشارك هذا الرمز، وأبلغ المرسل.",
};
