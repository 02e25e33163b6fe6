import type { RequestStatus } from "../types";

const LABELS: Record<RequestStatus, string> = {
  draft: "Draft",
  awaiting_approval: "Awaiting approval",
  sent: "Sent",
  in_progress: "In progress",
  completed: "Completed",
  cancelled: "Cancelled",
  declined: "Declined",
  expired: "Expired",
};

const TONE: Record<RequestStatus, string> = {
  draft: "neutral",
  awaiting_approval: "warning",
  sent: "info",
  in_progress: "info",
  completed: "success",
  cancelled: "neutral",
  declined: "danger",
  expired: "neutral",
};

export function StatusBadge({ status }: { status: RequestStatus }) {
  return <span className={`badge ${TONE[status]}`}>{LABELS[status]}</span>;
}

export const statusLabel = (status: RequestStatus) => LABELS[status];
