/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

const STYLES = `
:root { color-scheme: light; --fg: #222; --muted: #5c5c5c; --line: #d0d0d0; --accent: #00679e; --bad: #b00020; --good: #2d7b41; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, sans-serif; color: var(--fg); margin: 0; background: #f5f5f5; }
header { background: var(--accent); color: #fff; padding: 10px 24px; display: flex; justify-content: space-between; align-items: center; }
header h1 { font-size: 18px; margin: 0; font-weight: 600; }
header form { margin: 0; }
main { max-width: 760px; margin: 24px auto; padding: 0 16px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 20px; margin-bottom: 20px; }
h2 { font-size: 16px; margin: 0 0 12px; }
.field { margin-bottom: 14px; }
.field label { display: block; font-weight: 600; margin-bottom: 4px; }
.field input[type=text], .field input[type=url], .field input[type=password] { width: 100%; padding: 7px 9px; border: 1px solid #8a8a8a; border-radius: 4px; font: inherit; }
.hint { color: var(--muted); font-size: 13px; margin: 3px 0 0; }
.switch { display: flex; gap: 8px; align-items: center; margin-bottom: 10px; }
.switch input { width: 18px; height: 18px; }
.buttons { display: flex; gap: 10px; flex-wrap: wrap; margin-top: 12px; }
button { font: inherit; padding: 7px 16px; border-radius: 4px; border: 1px solid #8a8a8a; background: #fff; cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.danger { color: var(--bad); border-color: var(--bad); }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 13px; background: #e6f2e9; color: var(--good); }
.badge.bad { background: #fbe9eb; color: var(--bad); }
.status { min-height: 1.5em; margin: 8px 0 0; color: var(--good); }
.error { min-height: 1.5em; margin: 4px 0 0; color: var(--bad); font-weight: 600; }
table { border-collapse: collapse; width: 100%; margin-top: 10px; }
th, td { text-align: left; border-bottom: 1px solid var(--line); padding: 5px 6px; vertical-align: top; }
td:nth-child(2) { min-width: 10em; }
ul.history { margin: 0; padding-left: 20px; }
dialog { border: 1px solid var(--line); border-radius: 8px; padding: 18px 22px; max-width: 420px; }
dialog::backdrop { background: rgba(0,0,0,.35); }
.login { max-width: 380px; }
`;

/** A page; `lang` is the BCP 47 tag of its texts (a Nextcloud code such as de_DE is accepted). */
export function layout(title: string, body: string, head = '', lang = 'en'): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang.replace(/_/g, '-'))}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)}</title>
<style>${STYLES}</style>
${head}
</head>
<body>
${body}
</body>
</html>
`;
}

/** Strict policy for every page: own scripts only, no inline script, no framing. */
export const PAGE_SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
} as const;
