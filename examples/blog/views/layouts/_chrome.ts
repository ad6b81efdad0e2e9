/** The page shell both layouts share: head, header with navigation, flash messages, footer. */
import { html, type SafeString } from '../../../../core/index.ts';
import type { View } from '../../helpers.ts';

export function page(v: View, options: { title: string; section: string; nav: SafeString }): SafeString {
  const notice = v.flash.get('notice');
  const alert = v.flash.get('error');
  return html`<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${options.title}</title>
  <link rel="stylesheet" href="/stylesheets/blog.css">
</head>
<body class="${options.section}">
  <header>
    <div class="wrap">
      <a class="brand" href="${v.root_path()}">Signalbox Blog</a>
      <nav>${options.nav}</nav>
    </div>
  </header>
  <main class="wrap">
    ${notice ? html`<p class="flash notice">${notice}</p>` : ''}
    ${alert ? html`<p class="flash error">${alert}</p>` : ''}
    ${v.yield()}
  </main>
  <footer class="wrap">
    <p>An example app of Signalbox: Rails 2.1 routing on Node. Every resource page is also JSON and XML.</p>
  </footer>
</body>
</html>
`;
}
