export function loader() {
  return Response.json({ success: true, data: { ok: true } });
}
