/**
 * The two lists of /profile/history (issue 6 "Sessions"): active sessions with «Завершить»
 * and «Выйти на других устройствах» (plain form posts, so they work without JavaScript), and
 * the sign-in history table.
 */
import { Form } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { formatDateTime } from "~/lib/format";

/** Serialisable shapes of domain/users/sessions.server.ts (dates as ISO strings). */
export interface SessionView {
  handle: string;
  createdAt: string;
  method: string;
  ip: string | null;
  device: string;
  current: boolean;
}

export interface SignInView {
  id: number;
  createdAt: string;
  method: string;
  ip: string | null;
  device: string;
}

const METHOD_LABELS: Record<string, string> = { password: "пароль", telegram: "Telegram", email_link: "ссылка из письма" };

/** The Russian name of a sign-in method; an unknown stored value is shown as is. */
export function methodLabel(method: string): string {
  return METHOD_LABELS[method] ?? method;
}

export function ActiveSessions({ sessions }: { sessions: SessionView[] }) {
  const others = sessions.filter((s) => !s.current).length;
  return (
    <section className="grid gap-3" aria-labelledby="sessions-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="sessions-heading" className="font-heading text-xl font-bold">
          Активные сеансы
        </h2>
        {others > 0 ? (
          <Form method="post">
            <AuthenticityTokenInput />
            <input type="hidden" name="intent" value="end-others" />
            <Button type="submit" variant="destructive" size="sm">
              Выйти на других устройствах
            </Button>
          </Form>
        ) : null}
      </div>
      <ul className="grid gap-2" data-testid="active-sessions">
        {sessions.map((s) => (
          <li key={s.handle} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3" data-testid="active-session">
            <div className="grid gap-0.5">
              <p className="font-medium">
                {s.device} {s.current ? <Badge variant="secondary">это устройство</Badge> : null}
              </p>
              <p className="text-sm text-muted-foreground">
                Вход {formatDateTime(s.createdAt)} · {methodLabel(s.method)} · IP {s.ip ?? "неизвестен"}
              </p>
            </div>
            <Form method="post">
              <AuthenticityTokenInput />
              <input type="hidden" name="intent" value="end" />
              <input type="hidden" name="handle" value={s.handle} />
              <Button type="submit" variant="outline" size="sm">
                {s.current ? "Выйти" : "Завершить"}
              </Button>
            </Form>
          </li>
        ))}
      </ul>
      {others === 0 ? <p className="text-sm text-muted-foreground">Других активных сеансов нет.</p> : null}
    </section>
  );
}

export function SignInHistory({ events }: { events: SignInView[] }) {
  return (
    <section className="grid gap-3" aria-labelledby="history-heading">
      <h2 id="history-heading" className="font-heading text-xl font-bold">
        История входов
      </h2>
      {events.length === 0 ? (
        <p className="text-muted-foreground">Входов пока не было.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="sign-in-history">
            <thead className="text-muted-foreground">
              <tr>
                <th className="py-2 pr-4 font-medium">Время</th>
                <th className="py-2 pr-4 font-medium">Способ</th>
                <th className="py-2 pr-4 font-medium">IP</th>
                <th className="py-2 font-medium">Устройство</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id} className="border-t">
                  <td className="py-2 pr-4 whitespace-nowrap">{formatDateTime(e.createdAt)}</td>
                  <td className="py-2 pr-4">{methodLabel(e.method)}</td>
                  <td className="py-2 pr-4">{e.ip ?? "—"}</td>
                  <td className="py-2">{e.device}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
