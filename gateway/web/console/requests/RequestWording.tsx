/**
 * The parts of a request's form that every way of making one asks for alike: the template it is made
 * from (choosing one names the request after it), and what it says to its recipients — a title and
 * a message.
 */
import type { Template } from "../types";
import { SelectField, TextAreaField, TextField } from "../ui";

export function TemplateChoice({
  templates,
  value,
  onChoose,
}: {
  templates: readonly Template[];
  value: string;
  /** The template chosen, and its name for the request's title. */
  onChoose: (templateId: string, name: string | undefined) => void;
}) {
  return (
    <SelectField
      label="Template"
      value={value}
      options={templates.map((t) => ({ value: t.id, label: t.name }))}
      onChange={(id) => onChoose(id, templates.find((t) => t.id === id)?.name)}
    />
  );
}

export function RequestWording({
  title,
  message,
  onTitle,
  onMessage,
  titleError,
  messageLabel = "Message to signers",
  rows = 3,
}: {
  title: string;
  message: string;
  onTitle: (title: string) => void;
  onMessage: (message: string) => void;
  titleError?: string;
  messageLabel?: string;
  rows?: number;
}) {
  return (
    <>
      <TextField label="Title" value={title} onChange={(e) => onTitle(e.target.value)} error={titleError} />
      <TextAreaField
        label={messageLabel}
        optional
        rows={rows}
        value={message}
        onChange={(e) => onMessage(e.target.value)}
      />
    </>
  );
}
