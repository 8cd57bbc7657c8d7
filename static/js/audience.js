/* The audience's words, the TV's and the phone's alike: a question, what the audience said of it, its answer. */
import { list, t } from "./i18n.js";

export const percent = (part, whole) => (whole ? Math.round((100 * part) / whole) : 0);
export const total = (counts) => Object.values(counts || {}).reduce((a, b) => a + b, 0);

/* How many picked one of a question's answers (`counts`: its split): how many saw it coming. */
export const sawIt = (answer, counts) => answer.reduce((sum, option) => sum + ((counts || {})[option] || 0), 0);

/* The question, as the phone asks it. */
export const askedText = (q) => (q.key === "under" ? t("aud.q.under", { name: q.subject, n: q.line }) : t(`aud.q.${q.key}`));

/* An option in words: a name, or yes and no in the reader's language. */
export const optionText = (q, option) => (q.key === "under" ? t(`aud.${option}`) : option);

/* The hand's answer to one question. */
export function answerText(q, answer) {
  if (q.key === "first") return t("aud.a.first", { name: answer[0] });
  if (q.key === "worst") return t("aud.a.worst", { names: list(answer) });
  return t(answer[0] === "yes" ? "aud.a.under_yes" : "aud.a.under_no", { name: q.subject, n: q.line });
}
