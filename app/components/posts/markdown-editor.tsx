import { useEffect, useRef, useState, type ReactNode } from "react";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { Bold, Code, Heading2, Image as ImageIcon, ImageUp, Italic, Link2, List, LoaderCircle, Quote, type LucideIcon } from "lucide-react";
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from "~/components/ui/tooltip";
import { cn } from "~/lib/utils";
import { applyToTextarea, fetchPreview, replaceInTextarea, uploadImage } from "./editor-io";
import { insertBlock, markdownEdit, type MarkdownAction } from "./markdown-edits";

// No label may contain «Заголовок» or «Текст»: those name the form's own fields.
const TOOLS: { action: MarkdownAction; label: string; hint?: string; icon: LucideIcon; shortcut?: string }[] = [
  { action: "bold", label: "Жирный", icon: Bold, shortcut: "Ctrl+B" },
  { action: "italic", label: "Курсив", icon: Italic, shortcut: "Ctrl+I" },
  { action: "heading", label: "Раздел", hint: "Заголовок раздела", icon: Heading2 },
  { action: "quote", label: "Цитата", icon: Quote },
  { action: "code", label: "Код", icon: Code },
  { action: "link", label: "Ссылка", icon: Link2 },
  { action: "list", label: "Список", icon: List },
  { action: "image", label: "Изображение по ссылке", icon: ImageIcon },
];

/** How long the preview waits after the last keystroke before asking the server, in ms. */
const PREVIEW_DELAY_MS = 400;

/** Toolbar buttons: 44 px on phones (docs/product/interface.md#phones), 36 px from the sm screen up. */
const toolClass =
  "inline-flex size-11 items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:size-9";

function ToolButton({
  label,
  hint,
  shortcut,
  icon: Icon,
  onClick,
}: {
  label: string;
  hint?: string;
  shortcut?: string;
  icon: LucideIcon;
  onClick: () => void;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button type="button" className={toolClass} aria-label={label} aria-keyshortcuts={shortcut?.replace("Ctrl", "Control")} onClick={onClick}>
          <Icon aria-hidden className="size-4" />
        </button>
      </TooltipTrigger>
      <TooltipContent>{shortcut ? `${hint ?? label} (${shortcut})` : (hint ?? label)}</TooltipContent>
    </Tooltip>
  );
}

let uploadCounter = 0;

/**
 * The body field of the post editor (docs/product/content.md#post-editor): `children` is the
 * textarea (named `body`, reached through `textareaRef`). With JavaScript it gains a Markdown
 * toolbar (Ctrl+B, Ctrl+I), picture upload by button, drag and drop and paste, and a live preview
 * beside the text on wide screens (tabs «Текст» / «Просмотр» on phones). Without JavaScript none
 * of these render: the bare textarea posts as before, «Предпросмотр» shows the rendered post on
 * its own page, and PostForm shows a file field whose picture is uploaded on publishing.
 */
export function MarkdownEditor({ textareaRef, children }: { textareaRef: React.RefObject<HTMLTextAreaElement | null>; children: ReactNode }) {
  const hydrated = useHydrated();
  const csrf = useAuthenticityToken();
  const fileInput = useRef<HTMLInputElement>(null);
  const [tab, setTab] = useState<"text" | "preview">("text");
  const [uploading, setUploading] = useState(0);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [text, setText] = useState<string | null>(null);
  const [html, setHtml] = useState<string | null>(null);

  // The preview follows the text, PREVIEW_DELAY_MS after the last change; a newer change aborts the older request.
  useEffect(() => {
    if (!hydrated || text === null) return;
    if (text.trim() === "") {
      setHtml("");
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void fetchPreview(text, csrf, controller.signal).then((rendered) => {
        if (rendered !== null) setHtml(rendered);
      });
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, hydrated, csrf]);

  // The textarea's text, read on every input (typing, toolbar edits, a restored draft).
  useEffect(() => {
    const textarea = textareaRef.current;
    if (!hydrated || !textarea) return;
    setText(textarea.value);
    const onInput = () => setText(textarea.value);
    textarea.addEventListener("input", onInput);
    return () => textarea.removeEventListener("input", onInput);
  }, [hydrated, textareaRef]);

  const apply = (action: MarkdownAction) => {
    const textarea = textareaRef.current;
    if (!textarea) return;
    applyToTextarea(textarea, markdownEdit({ value: textarea.value, start: textarea.selectionStart, end: textarea.selectionEnd }, action));
  };

  const upload = (files: File[]) => {
    const textarea = textareaRef.current;
    if (!textarea || files.length === 0) return;
    setUploadError(null);
    for (const file of files) {
      uploadCounter += 1;
      const placeholder = `![Загрузка… ${uploadCounter}]()`;
      const block = insertBlock({ value: textarea.value, start: textarea.selectionStart, end: textarea.selectionEnd }, placeholder);
      applyToTextarea(textarea, block);
      setUploading((n) => n + 1);
      void uploadImage(file, csrf).then((result) => {
        setUploading((n) => n - 1);
        if ("url" in result) {
          replaceInTextarea(textarea, placeholder, `![](${result.url})`);
        } else {
          // The placeholder goes with the line breaks insertBlock put around it.
          if (!replaceInTextarea(textarea, block.insert, "")) replaceInTextarea(textarea, placeholder, "");
          setUploadError(result.error);
        }
      });
    }
  };

  const imagesOf = (list: FileList | null | undefined) => Array.from(list ?? []).filter((file) => file.type.startsWith("image/") || file.type === "");

  return (
    <div className="grid gap-2">
      {hydrated ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div role="toolbar" aria-label="Форматирование" className="flex flex-wrap items-center gap-0.5 rounded-md border border-input bg-muted/40 p-0.5">
            {/* The buttons' tooltips share their delays: once one has shown, the next opens at once. */}
            <TooltipProvider>
              {TOOLS.map((tool) => (
                <ToolButton
                  key={tool.action}
                  label={tool.label}
                  hint={tool.hint}
                  shortcut={tool.shortcut}
                  icon={tool.icon}
                  onClick={() => apply(tool.action)}
                />
              ))}
              <ToolButton label="Загрузить изображение" icon={ImageUp} onClick={() => fileInput.current?.click()} />
            </TooltipProvider>
            <input
              ref={fileInput}
              type="file"
              accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
              multiple
              hidden
              data-testid="image-upload-input"
              onChange={(event) => {
                upload(Array.from(event.currentTarget.files ?? []));
                event.currentTarget.value = "";
              }}
            />
          </div>
          <div role="tablist" aria-label="Режим редактора" className="flex rounded-md border border-input p-0.5 lg:hidden">
            {(
              [
                ["text", "Текст"],
                ["preview", "Просмотр"],
              ] as const
            ).map(([value, label]) => (
              <button
                key={value}
                type="button"
                role="tab"
                aria-selected={tab === value}
                className={cn(
                  "min-h-11 rounded px-4 text-sm font-medium sm:min-h-9",
                  tab === value ? "bg-primary text-primary-foreground" : "text-muted-foreground hover:bg-accent",
                )}
                onClick={() => setTab(value)}
              >
                {label}
              </button>
            ))}
          </div>
        </div>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <div
          className={cn("relative", tab === "preview" && "hidden lg:block", dragging && "rounded-md ring-2 ring-primary ring-offset-2 ring-offset-background")}
          onKeyDown={(event) => {
            if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
            const key = event.key.toLowerCase();
            const action = key === "b" || key === "и" ? "bold" : key === "i" || key === "ш" ? "italic" : null;
            if (!action) return;
            event.preventDefault();
            apply(action);
          }}
          onPaste={(event) => {
            const files = imagesOf(event.clipboardData?.files);
            if (files.length === 0) return;
            event.preventDefault();
            upload(files);
          }}
          onDragOver={(event) => {
            if (!event.dataTransfer.types.includes("Files")) return;
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            setDragging(false);
            const files = imagesOf(event.dataTransfer.files);
            if (files.length === 0) return;
            event.preventDefault();
            upload(files);
          }}
        >
          {children}
        </div>
        {hydrated ? (
          <section
            aria-label="Просмотр"
            data-testid="live-preview"
            className={cn(
              "min-h-40 overflow-auto rounded-md border border-dashed border-border bg-card p-4 lg:max-h-[34rem]",
              tab === "text" && "hidden lg:block",
            )}
          >
            <p className="mb-3 hidden text-xs font-semibold uppercase tracking-wider text-muted-foreground lg:block" aria-hidden>
              Просмотр
            </p>
            {html ? (
              <div className="prose-post" dangerouslySetInnerHTML={{ __html: html }} />
            ) : (
              <p className="text-sm text-muted-foreground">Здесь появится пост так, как его увидят читатели.</p>
            )}
          </section>
        ) : null}
      </div>
      <div aria-live="polite" className="text-sm">
        {uploading > 0 ? (
          <p className="flex items-center gap-2 text-muted-foreground">
            <LoaderCircle aria-hidden className="size-4 animate-spin" /> Загрузка изображения…
          </p>
        ) : null}
      </div>
      {uploadError ? (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-2 text-sm text-destructive">
          {uploadError}
        </p>
      ) : null}
    </div>
  );
}
