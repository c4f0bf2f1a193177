/** Hides the app chrome when printing, so the browser's "Save as PDF" gives a clean report of the page. */
const PRINT_CSS = `@media print {
  #admin-sidebar, body header.sticky, [data-print-hide], [data-sonner-toaster] { display: none !important; }
  .lg\\:ps-\\[280px\\] { padding-inline-start: 0 !important; }
  body { background: #fff !important; }
  [data-print-block] { break-inside: avoid; }
}`;

export function PrintStyle() {
  return <style>{PRINT_CSS}</style>;
}
