/**
 * Event subjects, relative to the bus namespace, with the countersign.events.v1 message each one
 * carries. Producers and consumers both name them from here.
 */
export const subjects = {
  /** countersign.events.v1.ApiKeyDeleted */
  apiKeyDeleted: "auth.api_key_deleted",
  /** countersign.events.v1.WorkspaceUpdated */
  workspaceUpdated: "auth.workspace_updated",
  /** countersign.events.v1.ApiCallsRecorded */
  apiCallsRecorded: "gateway.api_calls_recorded",
} as const;
