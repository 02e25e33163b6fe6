import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import SignaturePad, { type PointGroup } from "signature_pad";
import { Modal } from "../shared/Modal";
import type { SignatureValue } from "./api";
import { TypedSignature } from "./FieldBox";
import { FieldError } from "./FieldError";
import { useT } from "./i18n/Language";

type Tab = "type" | "draw";

interface Props {
  kind: "signature" | "initials";
  defaultText: string;
  current: SignatureValue | undefined;
  /** How many fields of this kind the signer has; offers "apply to all" when more than one. */
  count: number;
  onApply: (value: SignatureValue, applyToAll: boolean) => void;
  onClose: () => void;
}

/** Crops the drawing to its strokes (plus a margin) and returns base64 PNG without the data: prefix. */
function croppedPng(canvas: HTMLCanvasElement): string | null {
  const ctx = canvas.getContext("2d");
  if (!ctx) return null;
  const { width, height } = canvas;
  const pixels = ctx.getImageData(0, 0, width, height).data;
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((pixels[(y * width + x) * 4 + 3] ?? 0) > 0) {
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  if (maxX < 0) return null;
  const margin = 6;
  minX = Math.max(0, minX - margin);
  minY = Math.max(0, minY - margin);
  maxX = Math.min(width - 1, maxX + margin);
  maxY = Math.min(height - 1, maxY + margin);
  const out = document.createElement("canvas");
  out.width = maxX - minX + 1;
  out.height = maxY - minY + 1;
  out.getContext("2d")?.drawImage(canvas, minX, minY, out.width, out.height, 0, 0, out.width, out.height);
  return out.toDataURL("image/png").replace(/^data:image\/png;base64,/, "");
}

export function SignatureDialog({ kind, defaultText, current, count, onApply, onClose }: Props) {
  const t = useT();
  const [tab, setTab] = useState<Tab>(current?.kind === "drawn" ? "draw" : "type");
  const [text, setText] = useState(current?.kind === "typed" ? current.text : defaultText);
  const [hasDrawing, setHasDrawing] = useState(false);
  const [applyAll, setApplyAll] = useState(count > 1);
  const [error, setError] = useState<string | null>(null);
  const strokes = useRef<PointGroup[]>([]);
  const pad = useRef<SignaturePad | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const typeTab = useRef<HTMLButtonElement>(null);
  const drawTab = useRef<HTMLButtonElement>(null);
  const ids = useId();

  // The drawing pad lives while the Draw tab is shown; its canvas follows the dialog's width and the DPR.
  useEffect(() => {
    if (tab !== "draw" || !canvas.current) return;
    const el = canvas.current;
    const signaturePad = new SignaturePad(el, {
      penColor: "#14213d",
      minWidth: 0.8,
      maxWidth: 2.6,
      backgroundColor: "rgba(0,0,0,0)",
    });
    pad.current = signaturePad;
    const onEnd = () => {
      strokes.current = signaturePad.toData();
      setHasDrawing(!signaturePad.isEmpty());
      setError(null);
    };
    signaturePad.addEventListener("endStroke", onEnd);
    let lastWidth = 0;
    const resize = () => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || Math.round(rect.width) === lastWidth) return;
      lastWidth = Math.round(rect.width);
      el.width = Math.round(rect.width * ratio);
      el.height = Math.round(rect.height * ratio);
      el.getContext("2d")?.scale(ratio, ratio);
      signaturePad.clear();
      if (strokes.current.length) signaturePad.fromData(strokes.current);
    };
    resize();
    const observer = new ResizeObserver(resize);
    observer.observe(el);
    setHasDrawing(strokes.current.length > 0);
    return () => {
      observer.disconnect();
      signaturePad.removeEventListener("endStroke", onEnd);
      signaturePad.off();
      pad.current = null;
    };
  }, [tab]);

  const clear = () => {
    pad.current?.clear();
    strokes.current = [];
    setHasDrawing(false);
  };

  const apply = () => {
    if (tab === "type") {
      const value = text.trim();
      if (!value) {
        setError(t("signature.typeFirst", { kind }));
        input.current?.focus();
        return;
      }
      onApply({ kind: "typed", text: value }, applyAll);
      return;
    }
    const png = canvas.current && hasDrawing ? croppedPng(canvas.current) : null;
    if (!png) {
      setError(t("signature.drawFirst", { kind }));
      return;
    }
    onApply({ kind: "drawn", png }, applyAll);
  };

  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (
      event.key === "ArrowRight" ||
      event.key === "ArrowLeft" ||
      event.key === "Home" ||
      event.key === "End"
    ) {
      event.preventDefault();
      const next: Tab =
        event.key === "Home" ? "type" : event.key === "End" ? "draw" : tab === "type" ? "draw" : "type";
      setTab(next);
      setError(null);
      (next === "type" ? typeTab : drawTab).current?.focus();
    }
  };

  return (
    <Modal
      title={t("signature.title", { kind })}
      closeLabel={t("common.close")}
      onClose={onClose}
      testId="signature-dialog"
      initialFocus={input}
    >
      <div className="tabs" role="tablist" aria-label={t("signature.how", { kind })}>
        <button
          ref={typeTab}
          type="button"
          role="tab"
          id={`${ids}-tab-type`}
          aria-selected={tab === "type"}
          aria-controls={`${ids}-panel-type`}
          tabIndex={tab === "type" ? 0 : -1}
          data-testid="tab-type"
          className="tab"
          onClick={() => {
            setTab("type");
            setError(null);
          }}
          onKeyDown={onTabKey}
        >
          {t("signature.tabType")}
        </button>
        <button
          ref={drawTab}
          type="button"
          role="tab"
          id={`${ids}-tab-draw`}
          aria-selected={tab === "draw"}
          aria-controls={`${ids}-panel-draw`}
          tabIndex={tab === "draw" ? 0 : -1}
          data-testid="tab-draw"
          className="tab"
          onClick={() => {
            setTab("draw");
            setError(null);
          }}
          onKeyDown={onTabKey}
        >
          {t("signature.tabDraw")}
        </button>
      </div>

      {tab === "type" ? (
        <div
          role="tabpanel"
          id={`${ids}-panel-type`}
          aria-labelledby={`${ids}-tab-type`}
          className="tab-panel"
        >
          <label className="stacked-label" htmlFor={`${ids}-text`}>
            {t("signature.typeLabel", { kind })}
          </label>
          <input
            ref={input}
            id={`${ids}-text`}
            data-testid="signature-text"
            type="text"
            dir="auto"
            autoComplete={kind === "signature" ? "name" : "off"}
            value={text}
            maxLength={kind === "signature" ? 120 : 8}
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                apply();
              }
            }}
          />
          <TypedPreview text={text} placeholder={t("signature.preview")} />
        </div>
      ) : (
        <div
          role="tabpanel"
          id={`${ids}-panel-draw`}
          aria-labelledby={`${ids}-tab-draw`}
          className="tab-panel"
        >
          <p className="hint" id={`${ids}-draw-hint`}>
            {t("signature.drawHint")}
          </p>
          <div className="draw-area">
            <canvas
              ref={canvas}
              data-testid="signature-canvas"
              aria-label={t("signature.canvas", { kind })}
              aria-describedby={`${ids}-draw-hint`}
              role="img"
            />
            <span className="draw-line" aria-hidden="true" />
          </div>
          <div className="draw-tools">
            <button
              type="button"
              className="button link"
              onClick={clear}
              disabled={!hasDrawing}
              data-testid="clear-drawing"
            >
              {t("signature.clear")}
            </button>
          </div>
        </div>
      )}

      {count > 1 ? (
        <label className="check-row">
          <input
            type="checkbox"
            checked={applyAll}
            onChange={(e) => setApplyAll(e.target.checked)}
            data-testid="apply-all"
          />
          <span>{t("signature.applyAll", { kind, count })}</span>
        </label>
      ) : null}

      <FieldError>{error}</FieldError>

      <p className="hint legal-hint">{t("signature.legal", { kind })}</p>
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onClose}>
          {t("common.cancel")}
        </button>
        <button type="button" className="button primary" data-testid="apply-signature" onClick={apply}>
          {t("signature.apply")}
        </button>
      </div>
    </Modal>
  );
}

/**
 * The typed name as it will be drawn, whole: sized to the preview by the rule the field and the seal
 * follow (TypedSignature), where a fixed size cut a long name short with "…".
 */
function TypedPreview({ text, placeholder }: { text: string; placeholder: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [room, setRoom] = useState<{ width: number; height: number }>();
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setRoom({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} className="signature-preview" aria-hidden="true" data-testid="signature-preview">
      {!text.trim() ? (
        <span className="muted">{placeholder}</span>
      ) : room ? (
        <TypedSignature text={text} width={room.width} height={room.height} scale={1} />
      ) : null}
    </div>
  );
}
