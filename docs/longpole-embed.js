// The docs site's pages are built into the app's docs/ folder (mdBook's
// additional-js puts this script on each of them): it loads the app's
// embed.js from beside the docs, so that a page's <longpole-view> shows
// its sample live, from the same origin, online or offline.
(() => {
  const script = document.createElement('script');
  script.src = new URL('../embed.js', document.currentScript.src).href;
  document.head.append(script);
})();
