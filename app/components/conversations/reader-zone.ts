/**
 * The time zone chat times are shown in (docs/product/interface.md#dates-and-numbers): Moscow
 * on the server and in the first browser render (so hydration matches), the reader's own zone
 * from then on.
 */
import { useEffect, useState } from "react";
import { SERVER_TIME_ZONE } from "~/lib/format";

/** The IANA zone to show chat times in (see the module comment). */
export function useReaderZone(): string {
  const [zone, setZone] = useState(SERVER_TIME_ZONE);
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone || SERVER_TIME_ZONE), []);
  return zone;
}
