import { useEffect, useRef, useState } from "react";
import { useNavigation } from "react-router";
import { useHydrated } from "remix-utils/use-hydrated";
import { Button } from "~/components/ui/button";

/** The fields a draft keeps: the post form's own names. */
const DRAFT_FIELDS = ["title", "body", "categoryId", "kind"] as const;
type DraftValues = Record<(typeof DRAFT_FIELDS)[number], string>;

/** How often a draft is written while the member types, in ms. */
export const DRAFT_SAVE_MS = 2000;

/** The local-storage key of a draft: `post-draft:new` for a new post, `post-draft:{id}` for an edit. */
export const draftStorageKey = (key: string) => `post-draft:${key}`;

type FormControl = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function readValues(form: HTMLFormElement): DraftValues {
  const values = {} as DraftValues;
  for (const name of DRAFT_FIELDS) {
    const control = form.elements.namedItem(name) as FormControl | null;
    values[name] = control?.value ?? "";
  }
  return values;
}

/**
 * The fields as the server sent them (their default values), which is what the form shows when it
 * comes back with nothing typed: a member may type before the page's script starts
 * (docs/decisions/0057), and that text is theirs to keep as a draft, not part of the form as it came.
 */
function readDefaults(form: HTMLFormElement): DraftValues {
  const values = {} as DraftValues;
  for (const name of DRAFT_FIELDS) {
    const control = form.elements.namedItem(name) as FormControl | null;
    if (control instanceof HTMLSelectElement) {
      const options = [...control.options];
      values[name] = (options.find((option) => option.defaultSelected) ?? options[0])?.value ?? "";
    } else values[name] = control?.defaultValue ?? "";
  }
  return values;
}

function writeValues(form: HTMLFormElement, values: DraftValues): void {
  for (const name of DRAFT_FIELDS) {
    const control = form.elements.namedItem(name) as FormControl | null;
    if (!control || control.value === values[name]) continue;
    control.value = values[name];
    // Conform and the live preview listen for input.
    control.dispatchEvent(new Event("input", { bubbles: true }));
    control.dispatchEvent(new Event("change", { bubbles: true }));
  }
}

const same = (a: DraftValues, b: DraftValues) => DRAFT_FIELDS.every((name) => a[name] === b[name]);

function loadDraft(storageKey: string): DraftValues | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(storageKey) ?? "null") as Partial<DraftValues> | null;
    if (!parsed || typeof parsed !== "object") return null;
    const values = {} as DraftValues;
    for (const name of DRAFT_FIELDS) values[name] = typeof parsed[name] === "string" ? parsed[name] : "";
    return values;
  } catch {
    return null;
  }
}

/**
 * Autosaved drafts of the post editor (docs/product/content.md#post-editor), in the browser's local
 * storage under draftStorageKey(`draftKey`): the title, body, category and kind are written every
 * DRAFT_SAVE_MS while the member types (counting from hydration for text typed before it) and when
 * the page is left; on return a draft that differs from the form is put back with the notice
 * «Восстановлен черновик» and «Удалить черновик» (which also puts the form back as it came). A
 * publish that succeeds (the action redirects away) removes the draft. Nothing of this runs without
 * JavaScript.
 */
export function PostDraft({ formRef, draftKey, action }: { formRef: React.RefObject<HTMLFormElement | null>; draftKey: string; action: string }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const storageKey = draftStorageKey(draftKey);
  const [restored, setRestored] = useState(false);
  const initial = useRef<DraftValues | null>(null);
  const published = useRef(false);

  useEffect(() => {
    const form = formRef.current;
    if (!hydrated || !form) return;
    initial.current = readDefaults(form);
    const draft = loadDraft(storageKey);
    const restoring = draft !== null && !same(draft, readValues(form)) && Boolean(draft.title.trim() || draft.body.trim());
    if (restoring) {
      writeValues(form, draft);
      setRestored(true);
    }
    let timer: ReturnType<typeof setTimeout> | null = null;
    const save = () => {
      timer = null;
      if (published.current) return;
      const values = readValues(form);
      try {
        if (initial.current && same(values, initial.current)) localStorage.removeItem(storageKey);
        else localStorage.setItem(storageKey, JSON.stringify({ ...values, savedAt: Date.now() }));
      } catch {
        // Storage full or forbidden (private mode): the form still posts; there is just no draft.
      }
    };
    const schedule = () => {
      if (timer === null) timer = setTimeout(save, DRAFT_SAVE_MS);
    };
    form.addEventListener("input", schedule);
    form.addEventListener("change", schedule);
    window.addEventListener("pagehide", save);
    // Text typed before the page's script started (docs/decisions/0057) raised no input event here.
    if (!restoring && !same(readValues(form), initial.current)) schedule();
    return () => {
      if (timer !== null) clearTimeout(timer);
      form.removeEventListener("input", schedule);
      form.removeEventListener("change", schedule);
      window.removeEventListener("pagehide", save);
    };
  }, [hydrated, formRef, storageKey]);

  // The action redirected elsewhere (to the post): the post is out, the draft has served.
  const redirectedTo = navigation.state === "loading" && navigation.formAction === action ? navigation.location.pathname : null;
  useEffect(() => {
    if (redirectedTo === null || redirectedTo === action.split("?")[0]) return;
    published.current = true;
    try {
      localStorage.removeItem(storageKey);
    } catch {
      // Nothing to remove where storage is forbidden.
    }
  }, [redirectedTo, action, storageKey]);

  if (!restored) return null;
  return (
    <div role="status" className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-primary/40 bg-primary/5 p-3 text-sm">
      <span>Восстановлен черновик — текст, который вы не опубликовали.</span>
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="min-h-11 sm:min-h-8"
        onClick={() => {
          try {
            localStorage.removeItem(storageKey);
          } catch {
            // See above.
          }
          if (formRef.current && initial.current) writeValues(formRef.current, initial.current);
          setRestored(false);
        }}
      >
        Удалить черновик
      </Button>
    </div>
  );
}
