/** /profile/achievements: every achievement, earned or not, of the signed-in member (docs/product/content.md#achievements). */
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/achievements";
import { AchievementGrid } from "~/components/achievements/achievement-grid";
import { evaluateAchievements, listAchievementStatus } from "~/domain/achievements/achievements.server";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Достижения");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  // Catch up on rules no event signals (a year on the site, verified) and on events whose
  // subscribers have not finished yet; granting is idempotent, so this is safe on every view.
  await evaluateAchievements(context.db, user.id);
  return { userId: user.id, achievements: await listAchievementStatus(context.db, user.id) };
}

export default function AchievementsPage({ loaderData }: Route.ComponentProps) {
  const { achievements, userId } = loaderData;
  const earned = achievements.filter((a) => a.earnedAt !== null).length;
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-heading text-3xl font-extrabold">Достижения</h1>
          <p className="mt-1 text-muted-foreground">
            Получено {earned} из {achievements.length}. Полученные достижения видны в вашем{" "}
            <Link to={`/profile/${userId}`} className="text-primary underline-offset-4 hover:underline">
              публичном профиле
            </Link>
            .
          </p>
        </div>
      </div>
      <AchievementGrid achievements={achievements} />
    </div>
  );
}
