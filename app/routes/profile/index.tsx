/** /profile: the signed-in member's own page with links to their sections (sign-in required). */
import { Link } from "~/components/ui/link";
import { Bell, Bookmark, FileText, Handshake, History, Landmark, MessagesSquare, Scale, Settings, Trophy, Wallet } from "lucide-react";
import type { Route } from "./+types/index";
import { Button } from "~/components/ui/button";
import { ProfileHeader } from "~/components/users/profile-header";
import { getProfile } from "~/domain/users/users.server";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Мой профиль");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return { profile: await getProfile(context.db, user.id) };
}

const SECTIONS = [
  { to: "/profile/posts", label: "Мои публикации", icon: FileText },
  { to: "/profile/conversations", label: "Сообщения", icon: MessagesSquare },
  { to: "/profile/notifications", label: "Уведомления", icon: Bell },
  { to: "/profile/bookmarks", label: "Закладки", icon: Bookmark },
  { to: "/profile/wallet", label: "Кошелёк", icon: Wallet },
  { to: "/profile/deposit", label: "Депозит", icon: Landmark },
  { to: "/services/guarantor", label: "Сделки через гаранта", icon: Handshake },
  { to: "/claims", label: "Претензии", icon: Scale },
  { to: "/profile/achievements", label: "Достижения", icon: Trophy },
  { to: "/profile/history", label: "Входы и сеансы", icon: History },
  { to: "/profile/settings", label: "Настройки", icon: Settings },
];

export default function MyProfilePage({ loaderData }: Route.ComponentProps) {
  const { profile } = loaderData;
  return (
    <div className="grid gap-8">
      <ProfileHeader profile={profile}>
        <Button asChild variant="outline" size="sm">
          <Link to={`/profile/${profile.id}`}>Как видят другие</Link>
        </Button>
        <Button asChild size="sm">
          <Link to="/posts/new">Написать пост</Link>
        </Button>
      </ProfileHeader>
      <nav aria-label="Разделы профиля" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {SECTIONS.map(({ to, label, icon: Icon }) => (
          <Link key={to} to={to} className="flex items-center gap-3 rounded-xl border border-border bg-card p-4 font-medium shadow-sm hover:border-primary/50">
            <Icon aria-hidden className="size-5 text-primary" />
            {label}
          </Link>
        ))}
      </nav>
    </div>
  );
}
