import type { Catalogue } from "./en";

export const ar: Catalogue = {
  "document.title": "توقيع: {title}",
  "language.label": "اللغة",
  "common.tryAgain": "إعادة المحاولة",
  "common.cancel": "إلغاء",
  "common.close": "إغلاق",
  "common.required": "(مطلوب)",
  "common.somethingWrong": "حدث خطأ ما. يُرجى المحاولة مرة أخرى.",
  "common.network": "تعذّر الوصول إلى الخادم. تحقّق من اتصالك وحاول مرة أخرى.",

  "loading.title": "جارٍ تحميل مستنداتك…",
  "loading.body": "قد يستغرق ذلك لحظة.",
  "error.title": "تعذّر تحميل طلب التوقيع هذا",
  "ended.requestTitle": "لم يعد بالإمكان توقيع هذا الطلب",
  "ended.sessionTitle": "انتهت جلسة التوقيع هذه",
  "ended.sessionBody":
    "حفاظًا على أمانك، تنتهي صلاحية جلسات التوقيع. افتح الرابط الوارد في رسالة البريد الإلكتروني مرة أخرى للمتابعة.",
  "redirecting.title": "تم. جارٍ إعادتك…",
  "redirecting.body": "تجري إعادتك إلى الموقع الذي جئت منه.",
  "declined.title": "لقد رفضت التوقيع",
  "declined.body":
    "يمكن للمرسل أن يرى أنك رفضت التوقيع وسبب ذلك. لا يلزمك القيام بأي شيء آخر؛ يمكنك إغلاق هذه الصفحة.",
  "reassigned.title": "لقد أسندت هذا الطلب إلى شخص آخر",
  "reassigned.body":
    "أُرسل إلى {name} ({email}) رابط عبر البريد الإلكتروني للتوقيع نيابةً عنك. يمكن للمرسل أن يرى من اخترت وسبب ذلك. لم يعد رابطك صالحًا؛ يمكنك إغلاق هذه الصفحة.",

  "signed.title": "لقد وقّعت",
  "signed.othersBody":
    "شكرًا لك. لا يزال على آخرين التوقيع؛ وسنرسل إليك المستند المكتمل عبر البريد الإلكتروني بعد أن يوقّع الجميع. يمكنك إغلاق هذه الصفحة.",
  "complete.title": "اكتمل المستند",
  "complete.body": "وقّع الجميع، وتم ختم المستند. نزّل نسختك:",
  "everyoneSigned.title": "وقّع الجميع",
  "sealing.delayed":
    "يستغرق ختم المستند وقتًا أطول من المعتاد. تم إبلاغ المرسل، وسيُرسل إليك المستند المكتمل عبر البريد الإلكتروني بعد ختمه. يمكنك إغلاق هذه الصفحة.",
  "sealing.body": "جارٍ ختم المستند. يستغرق ذلك بضع ثوانٍ، وستكون نسختك جاهزة للتنزيل هنا.",
  "closed.cancelled.title": "تم إلغاء هذا الطلب",
  "closed.cancelled.body": "ألغى المرسل هذا الطلب، لذا لم يعد بالإمكان توقيعه.",
  "closed.expired.title": "انتهت صلاحية هذا الطلب",
  "closed.expired.body": "لم يعد بالإمكان توقيعه. اطلب من المرسل إرساله مرة أخرى.",
  "closed.declined.title": "تم رفض هذا الطلب",
  "closed.declined.body": "رفض مستلم آخر التوقيع، لذا لم يعد بالإمكان توقيعه.",
  "closed.completed.title": "اكتمل هذا الطلب",
  "closed.completed.body": "وقّع الجميع؛ لم يعد هناك ما يلزمك توقيعه.",
  "download.signed": "تنزيل المستند الموقّع",
  "copy.download": "تنزيل ما وقّعت عليه",
  "copy.note":
    "نسخة تحمل توقيعك للاحتفاظ بها إلى أن يوقّع الجميع. ستصلك الوثيقة المكتملة بشهادتها وختمها لاحقًا.",

  "gate.title": "أكّد هويتك",
  "gate.lead":
    "{hasSender, select, yes {يطلب منك {sender}} other {يطلب منك المرسل}} توقيع <b>{title}</b>. قبل عرض المستند، أدخل {count, plural, zero {الرموز التي طلبها} one {الرمز الذي طلبه} two {الرمزين اللذين طلبهما} few {الرموز التي طلبها} many {الرموز التي طلبها} other {الرموز التي طلبها}}.",
  "gate.accessCode.label": "رمز الوصول",
  "gate.accessCode.hint":
    "أعطاك المرسل هذا الرمز بطريقة أخرى: عبر الهاتف أو رسالة نصية أو رسالة بريدية. وهو غير موجود في رسالة البريد الإلكتروني.",
  "gate.accessCode.missing": "أدخل رمز الوصول الذي أعطاك إياه المرسل.",
  "gate.accessCode.wrong":
    "هذا ليس رمز الوصول الذي أعطاك إياه المرسل. {left, plural, zero {لم تتبقَّ أي محاولة} one {تتبقى محاولة واحدة} two {تتبقى محاولتان} few {تتبقى # محاولات} many {تتبقى # محاولة} other {تتبقى # محاولة}} قبل القفل المؤقت.",
  "gate.emailCode.label": "الرمز الوارد في بريدك الإلكتروني",
  "gate.emailCode.sent": "أرسلنا رمزًا مكوّنًا من ستة أرقام إلى {address}. وهو صالح لمدة 10 دقائق.",
  "gate.emailCode.willSend": "سنرسل رمزًا مكوّنًا من ستة أرقام إلى {address}.",
  "gate.emailCode.yourAddress": "عنوان بريدك الإلكتروني",
  "gate.emailCode.missing": "أدخل الرمز الوارد في رسالة البريد الإلكتروني.",
  "gate.emailCode.askFirst": "اطلب رمزًا أولًا، ثم أدخله هنا.",
  "gate.emailCode.wrong":
    "هذا ليس الرمز الذي أرسلناه إليك عبر البريد الإلكتروني. {left, plural, zero {لم تتبقَّ أي محاولة} one {تتبقى محاولة واحدة} two {تتبقى محاولتان} few {تتبقى # محاولات} many {تتبقى # محاولة} other {تتبقى # محاولة}} قبل القفل المؤقت.",
  "gate.emailCode.send": "أرسل لي رمزًا",
  "gate.emailCode.sendNew": "إرسال رمز جديد",
  "gate.continue": "المتابعة إلى المستند",
  "gate.locked.title": "رموز خاطئة كثيرة جدًا",
  "gate.locked.body":
    "حفاظًا على أمانك، هذا الطلب مقفل حتى <b>{time}</b>. حاول مرة أخرى حينها، أو اطلب الرمز الصحيح من {hasSender, select, yes {{sender}} other {المرسل}}.",

  "header.skip": "الانتقال إلى المستندات",
  "header.from": "من: <b>{sender}</b>",
  "header.signingAs": "التوقيع باسم <b>{name}</b> <muted>({email})</muted>",
  "header.viewingAs": "العرض باسم <b>{name}</b> <muted>({email})</muted>",
  "header.messageFrom": "{hasSender, select, yes {رسالة من {sender}} other {رسالة من المرسل}}",
  "howTo.title": "طريقة التوقيع",
  "howTo.body":
    "املأ الحقول المميّزة في المستندات أدناه، ثم وافق على التوقيع إلكترونيًا واختر <b>إنهاء</b> أسفل الصفحة.",
  "howTo.requiredMark": "الحقول المميّزة بعلامة * مطلوبة.",
  "test.notice": "هذا اختبار: أُرسلت هذه المستندات لتجربة الخدمة. توقيعها لا يُلزم أحدًا.",
  "viewer.title": "يُطلب منك الاطلاع على هذه المستندات",
  "viewer.body":
    "لا يوجد ما توقّع عليه. فتحها هو دورك، وقد سُجّل ذلك وأُبلغ المرسل. يمكنك إغلاق هذه الصفحة بعد قراءتها.",
  "approver.title": "يُطلب منك الموافقة على هذه المستندات",
  "approver.body": "اقرأها ثم وافق أو ارفض. لن توقّع على شيء: تُسجَّل موافقتك مع وقتها وعنوانك ومتصفحك.",
  "approver.consent": "أوافق على أن اختيار «موافقة» هو موافقتي الإلكترونية على هذه المستندات.",
  "approver.approve": "موافقة",
  "approver.approving": "جارٍ تسجيل الموافقة…",
  "approved.title": "لقد وافقت",
  "header.approvingAs": "الموافقة باسم <b>{name}</b> <muted>({email})</muted>",

  "progress.none": "لا توجد حقول مطلوبة",
  "progress.count":
    "تم إكمال {done, number} من {total, plural, zero {# حقل مطلوب} one {حقل مطلوب واحد} two {حقلين مطلوبين} few {# حقول مطلوبة} many {# حقلًا مطلوبًا} other {# حقل مطلوب}}",
  "progress.allDone":
    "{total, plural, zero {لا توجد حقول مطلوبة.} one {تم إكمال الحقل المطلوب.} two {تم إكمال الحقلين المطلوبين.} few {تم إكمال جميع الحقول المطلوبة (#).} many {تم إكمال جميع الحقول المطلوبة (#).} other {تم إكمال جميع الحقول المطلوبة (#).}}",
  "progress.label": "الحقول المطلوبة المكتملة",
  "finish.fillIn":
    "{count, plural, zero {لا توجد حقول مطلوبة متبقية.} one {املأ حقلًا مطلوبًا واحدًا آخر للإنهاء.} two {املأ حقلين مطلوبين آخرين للإنهاء.} few {املأ # حقول مطلوبة أخرى للإنهاء.} many {املأ # حقلًا مطلوبًا آخر للإنهاء.} other {املأ # حقل مطلوب آخر للإنهاء.}}",
  "finish.consent": "للإنهاء، وافق على التوقيع إلكترونيًا بجوار زر «إنهاء».",
  "next.consent": "اكتملت جميع الحقول المطلوبة. وافق على التوقيع إلكترونيًا، ثم اختر «إنهاء».",
  "next.finish": "تم ملء كل شيء. اختر «إنهاء» للتوقيع.",
  "actions.label": "تقدّم التوقيع والإجراءات",
  "actions.consent": "أوافق على التوقيع إلكترونيًا، وعلى أن توقيعي الإلكتروني يعادل قانونًا توقيعي بخط اليد.",
  "actions.consentAll": "اقرأ الكل",
  "actions.decline": "رفض",
  "actions.next": "الحقل التالي",
  "actions.signing": "جارٍ التوقيع…",
  "actions.finish": "إنهاء",
  "submit.problems":
    "{count, plural, zero {لا توجد مشكلات يجب إصلاحها قبل التوقيع.} one {توجد مشكلة واحدة يجب إصلاحها قبل التوقيع.} two {توجد مشكلتان يجب إصلاحهما قبل التوقيع.} few {توجد # مشكلات يجب إصلاحها قبل التوقيع.} many {توجد # مشكلة يجب إصلاحها قبل التوقيع.} other {توجد # مشكلة يجب إصلاحها قبل التوقيع.}}",
  "submit.closed": "لم يعد بالإمكان توقيع هذا الطلب.",

  "applied.again": "تم تطبيق {label} في الصفحة {page}. اختر الحقل مرة أخرى لتغييره.",
  "applied.one": "تم تطبيق {label} في الصفحة {page}.",
  "applied.all":
    "{kind, select, initials {تم التطبيق على جميع حقول الأحرف الأولى ({count}).} other {تم التطبيق على جميع حقول التوقيع ({count}).}}",

  "zoom.legend": "تكبير المستند",
  "zoom.out": "تصغير",
  "zoom.in": "تكبير",
  "zoom.fit": "ملاءمة العرض",

  "document.position": "المستند {index} من {total}",
  "document.pages":
    "{pages, plural, zero {# صفحة} one {صفحة واحدة} two {صفحتان} few {# صفحات} many {# صفحة} other {# صفحة}}",
  "document.loadFailed": "تعذّر تحميل هذا المستند.",
  "page.loading": "جارٍ تحميل الصفحة {page}…",
  "page.unavailable": "الصفحة غير متاحة",
  "page.label": "الصفحة {page} من {total}",

  "inPerson.title": "التوقيع الحضوري",
  "inPerson.body":
    "يدير <b>{host}</b> عملية التوقيع هذه على هذا الجهاز. يُرجى تسليمه إلى <b>{name}</b> للتوقيع.",
  "inPerson.continue": "أنا {name}: متابعة",
  "header.hostedBy": "حضوريًا، بإدارة <b>{host}</b>",

  "type.signature": "التوقيع",
  "type.initials": "الأحرف الأولى",
  "type.date_signed": "تاريخ التوقيع",
  "type.text": "نص",
  "type.checkbox": "خانة اختيار",
  "type.name": "الاسم الكامل",
  "type.email": "البريد الإلكتروني",
  "type.date": "التاريخ",
  "type.number": "رقم",
  "type.dropdown": "اختيار من قائمة",
  "type.radio": "خيار",
  "type.attachment": "مرفق",

  "field.required": "مطلوب",
  "field.optional": "اختياري",
  "field.described": "{label}، {requirement}، الصفحة {page}",
  "field.sign": "وقّع",
  "field.initial": "وقّع بالأحرف الأولى",
  "field.toSign": "{action}: {label}، {requirement}، الصفحة {page}",
  "field.signedTyped": "{text}: {label}، موقّع، الصفحة {page}. اختر للتغيير",
  "field.signedDrawn": "{label}، موقّع (مرسوم)، الصفحة {page}. اختر للتغيير",
  "field.dateSigned": "تاريخ التوقيع، يُملأ تلقائيًا عند الإنهاء، الصفحة {page}",
  "field.choose": "اختر…",
  "field.pickDate": "اختر تاريخًا",
  "field.pickedDate": "{date}: {label}، {requirement}، الصفحة {page}. اختر للتغيير",
  "field.toPickDate": "اختر تاريخًا: {label}، {requirement}، الصفحة {page}",
  "field.numberHint":
    "{label}، رقم{range, select, both { من {min} إلى {max}} min { لا يقل عن {min}} max { لا يزيد على {max}} other {}}، {requirement}، الصفحة {page}",
  "field.notANumber": "أدخل رقمًا، مثل 42 أو 3.5.",
  "field.tooSmall": "أدخل {min} أو أكثر.",
  "field.tooLarge": "أدخل {max} أو أقل.",
  "field.radioOption": "{option}، {label}، {requirement}، الصفحة {page}",
  "field.groupCount":
    "{least, plural, =0 {} zero {حدّد # خانة على الأقل.} one {حدّد خانة واحدة على الأقل.} two {حدّد خانتين على الأقل.} few {حدّد # خانات على الأقل.} many {حدّد # خانةً على الأقل.} other {حدّد # خانة على الأقل.}}{most, plural, =0 {} zero { حدّد # خانة على الأكثر.} one { حدّد خانة واحدة على الأكثر.} two { حدّد خانتين على الأكثر.} few { حدّد # خانات على الأكثر.} many { حدّد # خانةً على الأكثر.} other { حدّد # خانة على الأكثر.}}",
  "field.attach": "إرفاق ملف",
  "field.attaching": "جارٍ الإرفاق…",
  "field.toAttach": "إرفاق ملف: {label}، {requirement}، الصفحة {page}",
  "field.attachedFile": "{filename}: {label}، مُرفق، الصفحة {page}. اختر للاستبدال",
  "attach.tooLarge": "حجم هذا الملف أكبر من 10 ميغابايت. أرفق ملفًا أصغر.",
  "attach.wrongType": "أرفق ملف PDF أو صورة بتنسيق PNG أو JPEG.",
  "attach.failed": "تعذّر إرفاق الملف. حاول مرة أخرى.",
  "date.title": "اختر تاريخًا",
  "date.apply": "تطبيق",
  "date.clear": "مسح",
  "filled.by": "{label}، ملأه {name}",
  "filled.byWithValue": "{label}، ملأه {name}: {value}",

  "signature.title": "{kind, select, initials {اعتماد أحرفك الأولى} other {اعتماد توقيعك}}",
  "signature.how": "{kind, select, initials {طريقة إنشاء أحرفك الأولى} other {طريقة إنشاء توقيعك}}",
  "signature.tabType": "كتابة",
  "signature.tabDraw": "رسم",
  "signature.typeLabel": "{kind, select, initials {أحرفك الأولى} other {اسمك الكامل}}",
  "signature.preview": "معاينة",
  "signature.drawHint":
    "ارسم باستخدام الماوس أو القلم أو إصبعك. يمكن لمستخدمي لوحة المفاتيح استخدام علامة التبويب «كتابة».",
  "signature.canvas": "{kind, select, initials {مساحة رسم أحرفك الأولى} other {مساحة رسم توقيعك}}",
  "signature.clear": "مسح",
  "signature.typeFirst": "{kind, select, initials {اكتب أحرفك الأولى أولًا.} other {اكتب توقيعك أولًا.}}",
  "signature.drawFirst":
    "{kind, select, initials {ارسم أحرفك الأولى في المربع أولًا، أو استخدم علامة التبويب «كتابة».} other {ارسم توقيعك في المربع أولًا، أو استخدم علامة التبويب «كتابة».}}",
  "signature.applyAll":
    "{kind, select, initials {تطبيق على جميع حقول الأحرف الأولى ({count})} other {تطبيق على جميع حقول التوقيع ({count})}}",
  "signature.legal":
    "{kind, select, initials {باختيار «تطبيق»، فإنك تعتمد هذه الأحرف بوصفها أحرفك الأولى الإلكترونية لهذا الطلب.} other {باختيار «تطبيق»، فإنك تعتمد هذا التوقيع بوصفه توقيعك الإلكتروني لهذا الطلب.}}",
  "signature.apply": "تطبيق",

  "decline.title": "رفض التوقيع",
  "decline.description": "سيتم إبلاغ المرسل برفضك مع ذكر السبب. ولن تتمكن من توقيع هذا الطلب بعد ذلك.",
  "decline.reason": "سبب الرفض",
  "decline.characters": "عدد الأحرف: {count, number} / {max, number}",
  "decline.missing": "يُرجى إخبار المرسل بسبب رفضك.",
  "decline.declining": "جارٍ الرفض…",

  "reassign.offer": "هل يجب أن يوقّع شخص آخر؟",
  "reassign.title": "الإسناد إلى شخص آخر",
  "reassign.description":
    "سيُرسل إليه رابط عبر البريد الإلكتروني للتوقيع نيابةً عنك. سيتوقف رابطك عن العمل، وسيرى المرسل من اخترت وسبب ذلك.",
  "reassign.name": "اسم الشخص",
  "reassign.email": "البريد الإلكتروني للشخص",
  "reassign.reason": "السبب",
  "reassign.nameMissing": "أدخل اسم الشخص الذي سيوقّع بدلًا منك.",
  "reassign.emailMissing": "أدخل عنوان بريده الإلكتروني: سيُرسل الرابط إليه.",
  "reassign.reasonMissing": "أخبر المرسل بالسبب.",
  "reassign.confirm": "إسناد",
};
