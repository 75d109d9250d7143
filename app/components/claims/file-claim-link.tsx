import { ShieldAlert } from "lucide-react";
import { Link } from "~/components/ui/link";
import { buttonVariants } from "~/components/ui/button";

/** «Подать претензию» on someone else's profile: opens /claims/new with the member prefilled. */
export function FileClaimLink({ username }: { username: string }) {
  return (
    <Link to={`/claims/new?accused=${encodeURIComponent(username)}`} className={buttonVariants({ size: "sm", variant: "outline" })}>
      <ShieldAlert aria-hidden /> Подать претензию
    </Link>
  );
}
