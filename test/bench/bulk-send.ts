/**
 * Bulk send of 1,000 rows from one template, against the baseline of the same requests made one
 * call each through POST /signature-requests with as many calls at once as the worker makes
 * requests at once (4): what the background work costs over a client's own loop. Rows per second
 * are taken from the batch's own start and end times.
 */

export interface BulkSendFigures {
  rows: number;
  /** Rows sent a second, the batch's start to its end. */
  rowsPerSecond: number;
  /** The same requests made by calls, four at once, a second. */
  baselinePerSecond: number;
  baselineRequests: number;
}

const ROWS = 1000;
const BASELINE_REQUESTS = 200;
const AT_ONCE = 4;

function rowOf(i: number) {
  return {
    recipients: [{ name: `Bulk Signer ${i}`, email: `bulk${i}@example.com`, role: "Signer" }],
  };
}

async function post(url: string, key: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

export async function measureBulkSend(
  accountBase: string,
  key: string,
  templateId: string,
): Promise<BulkSendFigures> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < BASELINE_REQUESTS) {
        const i = next++;
        const made = await post(`${accountBase}/signature-requests`, key, {
          title: "Bench bulk baseline",
          templateId,
          ...rowOf(i),
          send: true,
        });
        if (made.status !== 201) throw new Error(`a baseline request answered ${made.status}`);
      }
    }),
  );
  const baselinePerSecond = BASELINE_REQUESTS / ((performance.now() - started) / 1000);

  const rows = Array.from({ length: ROWS }, (_, i) => rowOf(i));
  const begun = await post(`${accountBase}/bulk-sends`, key, { templateId, title: "Bench bulk send", rows });
  if (begun.status !== 202)
    throw new Error(`the bulk send answered ${begun.status}: ${JSON.stringify(begun.json)}`);
  const id = (begun.json as { id: string }).id;
  for (;;) {
    const res = await fetch(`${accountBase}/bulk-sends/${id}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const batch = (await res.json()) as {
      status: string;
      sent: number;
      failed: number;
      createdAt: string;
      endedAt: string | null;
    };
    if (batch.status !== "running") {
      if (batch.sent !== ROWS)
        throw new Error(`the bulk send ended with ${batch.sent} sent, ${batch.failed} failed`);
      const seconds = (Date.parse(batch.endedAt ?? "") - Date.parse(batch.createdAt)) / 1000;
      return {
        rows: ROWS,
        rowsPerSecond: ROWS / seconds,
        baselinePerSecond,
        baselineRequests: BASELINE_REQUESTS,
      };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
