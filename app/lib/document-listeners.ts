/**
 * The document-wide listeners of the page's one-per-page hosts (the trust card's, decision 0038; the
 * hints', decision 0041), added and removed as one table.
 */

/** Handlers by event type, typed as the document's events are. */
export type DocumentListeners = { [Type in keyof DocumentEventMap]?: (event: DocumentEventMap[Type]) => void };

/**
 * Adds every listener of `listeners` to the document with `options` (addEventListener's) and
 * returns the function that removes them all, for an effect's cleanup.
 */
export function listenOnDocument(listeners: DocumentListeners, options: AddEventListenerOptions = {}): () => void {
  const entries = Object.entries(listeners) as [string, EventListener][];
  for (const [type, listener] of entries) document.addEventListener(type, listener, options);
  return () => {
    for (const [type, listener] of entries) document.removeEventListener(type, listener, options);
  };
}
