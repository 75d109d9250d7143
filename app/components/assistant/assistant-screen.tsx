/**
 * The assistant's screen (/chatgpt and /chatgpt/{id}; issue 11): the member's conversations
 * beside the open one, its messages, and the composer. Without JavaScript the composer posts to
 * the page, which answers once the whole reply is ready. With it, the composer posts to
 * /api/assistant/messages and shows the reply as it streams, with «Остановить»; then the page
 * reloads its data and shows the saved reply. While the assistant is off, the page says so and
 * the composer is disabled.
 */
import { getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput, useAuthenticityToken } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { AlertTriangle, Bot, MessageSquarePlus, Send, Square, Trash2 } from "lucide-react";
import { messagesOf, resultFor, type FormActionData } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { useSubmitting } from "~/components/forms/use-submitting";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import type { AssistantMessageDto, AssistantPageData } from "~/domain/assistant/types";
import { formatDateTime } from "~/lib/format";
import { cn } from "~/lib/utils";
import { readEvents } from "./sse";

/** What the page shows while an answer streams in, until the reloaded data has it. */
interface PendingTurn {
  content: string;
  text: string;
  answerId: number | null;
  /** The saved answer once the stream ended (done or failed). */
  final: AssistantMessageDto | null;
}

export function AssistantScreen({ data, actionData }: { data: AssistantPageData; actionData: FormActionData | undefined }) {
  const { conversation, conversations, enabled, usage } = data;
  const [pending, setPending] = useState<PendingTurn | null>(null);
  const [remaining, setRemaining] = useState(usage.remaining);
  // Reloaded data has the server's count (a failed answer gives its request back).
  useEffect(() => setRemaining(usage.remaining), [usage]);
  // The reloaded conversation has the answer: the streamed copy can go.
  useEffect(() => {
    if (pending?.answerId && conversation?.messages.some((m) => m.id === pending.answerId)) setPending(null);
  }, [conversation, pending?.answerId]);

  const messages = conversation?.messages ?? [];
  return (
    <div className="grid gap-4 md:grid-cols-[15rem_1fr] md:gap-6">
      <ConversationList conversations={conversations} activeId={conversation?.id ?? null} />
      <section className="flex min-h-[calc(100dvh-9rem)] min-w-0 flex-col gap-3 md:h-[calc(100dvh-8rem)] md:min-h-[28rem]" aria-label="Разговор с ассистентом">
        <header className="flex flex-wrap items-center justify-between gap-2">
          <h1 className="flex min-w-0 items-center gap-2 font-heading text-2xl font-extrabold">
            <Bot aria-hidden className="size-6 shrink-0 text-primary" />
            <span className="truncate">{conversation?.title ?? "Ассистент"}</span>
          </h1>
          <p className="text-sm text-muted-foreground" data-testid="assistant-quota">
            Сегодня осталось {remaining} из {usage.quota} запросов
          </p>
        </header>
        {!enabled ? (
          <div role="status" className="flex gap-3 rounded-xl border border-warning/40 bg-warning/10 p-4 text-sm" data-testid="assistant-off">
            <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-warning" />
            <div>
              <p className="font-semibold">Ассистент выключен</p>
              <p className="text-muted-foreground">
                Администратор сайта ещё не подключил сервис ассистента, поэтому сообщения никуда не отправляются. Загляните позже.
              </p>
            </div>
          </div>
        ) : null}
        {conversation ? <ConversationTools title={conversation.title} actionData={actionData} /> : null}
        <Messages messages={messages} pending={pending} empty={!conversation && !pending} />
        <Composer
          conversationId={conversation?.id ?? null}
          enabled={enabled}
          maxPromptChars={data.maxPromptChars}
          lastResult={resultFor(actionData, "send")}
          streaming={pending !== null && pending.final === null}
          onPending={setPending}
          onRemaining={setRemaining}
        />
      </section>
    </div>
  );
}

function ConversationList({ conversations, activeId }: { conversations: AssistantPageData["conversations"]; activeId: number | null }) {
  const list = (
    <nav aria-label="Разговоры" className="grid gap-1">
      <Button asChild variant={activeId === null ? "secondary" : "outline"} size="sm" className="mb-2 justify-start">
        <Link to="/chatgpt">
          <MessageSquarePlus aria-hidden /> Новый разговор
        </Link>
      </Button>
      {conversations.length === 0 ? <p className="px-2 text-sm text-muted-foreground">Разговоров пока нет.</p> : null}
      {conversations.map((c) => (
        <Link
          key={c.id}
          to={`/chatgpt/${c.id}`}
          aria-current={c.id === activeId ? "page" : undefined}
          className={cn("truncate rounded-md px-2 py-1.5 text-sm hover:bg-accent", c.id === activeId && "bg-accent font-medium text-accent-foreground")}
          data-testid="assistant-conversation-link"
        >
          {c.title}
        </Link>
      ))}
    </nav>
  );
  return (
    <>
      <details className="rounded-xl border border-border bg-card p-3 md:hidden">
        <summary className="cursor-pointer text-sm font-medium">Разговоры ({conversations.length})</summary>
        <div className="mt-3">{list}</div>
      </details>
      <aside className="hidden md:block">{list}</aside>
    </>
  );
}

function ConversationTools({ title, actionData }: { title: string; actionData: FormActionData | undefined }) {
  const errors = [...messagesOf(resultFor(actionData, "rename")), ...messagesOf(resultFor(actionData, "delete"))];
  return (
    <details className="rounded-xl border border-border bg-card px-3 py-2 text-sm" data-testid="assistant-tools">
      <summary className="cursor-pointer font-medium">Переименовать или удалить</summary>
      <div className="mt-3 grid gap-3">
        <FormErrors errors={errors} />
        <Form method="post" className="flex flex-wrap gap-2">
          <AuthenticityTokenInput />
          <input type="hidden" name="intent" value="rename" />
          <label htmlFor="conversation-title" className="sr-only">
            Название разговора
          </label>
          <Input id="conversation-title" name="title" defaultValue={title} maxLength={100} required className="max-w-sm flex-1" />
          <Button type="submit" variant="outline" size="sm" className="h-9">
            Переименовать
          </Button>
        </Form>
        <Form method="post">
          <AuthenticityTokenInput />
          <input type="hidden" name="intent" value="delete" />
          <Button type="submit" variant="ghost" size="sm" className="text-destructive">
            <Trash2 aria-hidden /> Удалить разговор
          </Button>
        </Form>
      </div>
    </details>
  );
}

function Messages({ messages, pending, empty }: { messages: AssistantMessageDto[]; pending: PendingTurn | null; empty: boolean }) {
  const shown = pending?.answerId ? messages.filter((m) => m.id !== pending.answerId) : messages;
  return (
    // column-reverse keeps the newest message in view, with or without JavaScript.
    <div
      className="flex min-h-48 flex-1 flex-col-reverse overflow-y-auto rounded-2xl border border-border bg-card/60 p-3 sm:p-4"
      data-testid="assistant-messages"
    >
      <ol className="grid gap-3" aria-live="polite">
        {empty ? (
          <li className="grid place-items-center gap-2 py-10 text-center text-muted-foreground">
            <Bot aria-hidden className="size-10 text-primary/60" />
            <p>Спросите о чём угодно: как составить объявление, проверить продавца или оформить сделку через гаранта.</p>
          </li>
        ) : null}
        {shown.map((message, index) => (
          <MessageBubble key={message.id} message={message} last={!pending && index === shown.length - 1} />
        ))}
        {pending ? (
          <>
            <li className="ml-auto max-w-[85%] rounded-2xl rounded-br-sm bg-primary px-4 py-2 whitespace-pre-wrap text-primary-foreground">
              {pending.content}
            </li>
            <li
              id="last"
              className="mr-auto max-w-[85%] rounded-2xl rounded-bl-sm border border-border bg-background px-4 py-2"
              data-testid="assistant-streaming"
            >
              {pending.text ? (
                <p className="whitespace-pre-wrap">{pending.text}</p>
              ) : (
                <p className="animate-pulse text-muted-foreground">Ассистент печатает…</p>
              )}
              {pending.final?.errorMessage ? <FailureNote text={pending.final.errorMessage} /> : null}
            </li>
          </>
        ) : null}
      </ol>
    </div>
  );
}

function MessageBubble({ message, last }: { message: AssistantMessageDto; last: boolean }) {
  if (message.role === "user") {
    return (
      <li
        className="ml-auto max-w-[85%] rounded-2xl rounded-br-sm bg-primary px-4 py-2 whitespace-pre-wrap text-primary-foreground"
        title={formatDateTime(message.createdAt)}
      >
        {message.content}
      </li>
    );
  }
  return (
    <li
      id={last ? "last" : undefined}
      className="mr-auto max-w-[85%] rounded-2xl rounded-bl-sm border border-border bg-background px-4 py-2"
      data-testid="assistant-answer"
    >
      {message.html ? <div className="prose-post text-sm" dangerouslySetInnerHTML={{ __html: message.html }} /> : null}
      {message.status === "streaming" ? <p className="animate-pulse text-muted-foreground">Ассистент печатает…</p> : null}
      {message.errorMessage ? <FailureNote text={message.errorMessage} /> : null}
    </li>
  );
}

function FailureNote({ text }: { text: string }) {
  return (
    <p role="alert" className="mt-1 flex gap-2 text-sm text-destructive" data-testid="assistant-failure">
      <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
      {text}
    </p>
  );
}

function Composer({
  conversationId,
  enabled,
  maxPromptChars,
  lastResult,
  streaming,
  onPending,
  onRemaining,
}: {
  conversationId: number | null;
  enabled: boolean;
  maxPromptChars: number;
  lastResult: SubmissionResult<string[]> | undefined;
  streaming: boolean;
  onPending: React.Dispatch<React.SetStateAction<PendingTurn | null>>;
  onRemaining: (remaining: number) => void;
}) {
  const hydrated = useHydrated();
  const csrf = useAuthenticityToken();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const submitting = useSubmitting({ intent: "send" });
  const abort = useRef<AbortController | null>(null);
  const [streamError, setStreamError] = useState<string | null>(null);
  const [length, setLength] = useState(0);
  const textarea = useRef<HTMLTextAreaElement>(null);
  // Text typed before the page's script started (docs/decisions/0057) raised no change React saw.
  useEffect(() => setLength(textarea.current?.value.length ?? 0), []);
  // Conform reads the server's reply to a form posted without JavaScript; with it, stream() checks the text.
  const [form, fields] = useForm<{ intent: "send"; content: string }>({ id: "send", lastResult });
  useEffect(() => () => abort.current?.abort(), []);

  async function stream(event: React.FormEvent<HTMLFormElement>) {
    const element = event.currentTarget;
    const content = String(new FormData(element).get("content") ?? "").trim();
    if (!hydrated) return;
    event.preventDefault();
    if (content === "" || content.length > maxPromptChars) {
      setStreamError(content === "" ? "Напишите сообщение" : `Сообщение слишком длинное: ${content.length} символов, можно не больше ${maxPromptChars}`);
      return;
    }
    setStreamError(null);
    const controller = new AbortController();
    abort.current = controller;
    onPending({ content, text: "", answerId: null, final: null });
    let conversation = conversationId;
    try {
      const response = await fetch("/api/assistant/messages", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/event-stream", "X-CSRF-Token": csrf },
        body: JSON.stringify(conversationId ? { content, conversationId } : { content }),
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => null)) as { errors?: { message?: string } } | null;
        onPending(null);
        setStreamError(body?.errors?.message ?? "Не удалось отправить сообщение. Обновите страницу и попробуйте ещё раз.");
        return;
      }
      element.reset();
      setLength(0);
      await readEvents(response.body, (e) => {
        if (e.event === "start") {
          conversation = e.data.conversationId;
          onRemaining(e.data.usage.remaining);
          onPending((p) => p && { ...p, answerId: e.data.answerId });
        } else if (e.event === "delta") {
          onPending((p) => p && { ...p, text: p.text + e.data.text });
        } else {
          onPending((p) => p && { ...p, final: e.data.message });
        }
      });
    } catch (error) {
      if (!(error instanceof DOMException && error.name === "AbortError")) {
        setStreamError("Соединение прервалось. Сохранённая часть ответа появится после обновления страницы.");
      }
    } finally {
      abort.current = null;
    }
    // Load the saved conversation (a new one gets its own address).
    if (conversation !== null && conversation !== conversationId) navigate(`/chatgpt/${conversation}`);
    else void revalidator.revalidate();
  }

  const busy = streaming || submitting;
  const over = length > maxPromptChars;
  return (
    <Form method="post" id={form.id} onSubmit={(e) => void stream(e)} className="grid gap-2" data-testid="assistant-composer">
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value="send" />
      <FormErrors id={form.errorId} errors={[...(form.errors ?? []), ...(streamError ? [streamError] : [])]} />
      <label htmlFor={fields.content.id} className="sr-only">
        Сообщение ассистенту
      </label>
      <Textarea
        {...getTextareaProps(fields.content)}
        key={fields.content.key}
        ref={textarea}
        rows={3}
        placeholder={enabled ? "Напишите вопрос…" : "Ассистент выключен"}
        disabled={!enabled}
        aria-invalid={over || fields.content.errors ? true : undefined}
        onChange={(event) => setLength(event.currentTarget.value.length)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) event.currentTarget.form?.requestSubmit();
        }}
      />
      {fields.content.errors ? <p className="text-sm text-destructive">{fields.content.errors.join(" ")}</p> : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className={cn("text-xs", over ? "font-medium text-destructive" : "text-muted-foreground")} data-testid="assistant-length">
          {over ? `Слишком длинно: ${length} из ${maxPromptChars} символов` : `До ${maxPromptChars} символов`}
        </span>
        <div className="flex gap-2">
          {streaming ? (
            <Button type="button" variant="outline" onClick={() => abort.current?.abort()}>
              <Square aria-hidden /> Остановить
            </Button>
          ) : null}
          <Button type="submit" disabled={!enabled || busy || over}>
            <Send aria-hidden /> {busy ? "Ассистент отвечает…" : "Отправить"}
          </Button>
        </div>
      </div>
    </Form>
  );
}
