/**
 * The layout every page of the application is rendered in: `v.yield()` is the page itself,
 * `v.yield('title')` what the page gave with content_for('title', ...).
 */
import { html } from 'signalbox';

/** @param {import('signalbox').View} v */
export default (v) => {
  const title = v.yield('title').value;
  const notice = v.flash.get('notice');
  return html`<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title === '' ? '{{app_name}}' : `${title} · {{app_name}}`}</title>
  <link rel="stylesheet" href="/stylesheets/application.css">
</head>
<body>
  <header><a href="${v.root_path()}">{{app_name}}</a></header>
  <main>
    ${notice ? html`<p class="notice">${notice}</p>` : ''}
    ${v.yield()}
  </main>
</body>
</html>
`;
};
