import { escapeHtml, layout } from './html.js';

export function loginPage(options: { readonly redirectUrl: string; readonly failed: boolean; readonly throttled?: boolean }): string {
  const message = options.throttled
    ? '<p class="error" role="alert">Too many failed logins from your address. Try again later.</p>'
    : options.failed
      ? '<p class="error" role="alert">Wrong login or password.</p>'
      : '';
  return layout(
    'Log in – Document archive search',
    `<header><h1>Document archive search</h1></header>
<main class="login">
<section>
<h2>Log in</h2>
${message}
<form method="post" action="/login">
<div class="field"><label for="user">Login</label><input type="text" id="user" name="user" autocomplete="username" required autofocus></div>
<div class="field"><label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required></div>
<input type="hidden" name="redirect_url" value="${escapeHtml(options.redirectUrl)}">
<div class="buttons"><button type="submit" class="primary">Log in</button></div>
</form>
</section>
</main>`,
  );
}
