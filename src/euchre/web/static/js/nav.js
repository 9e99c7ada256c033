// Moving between the client's pages without reloading: change the URL, then let the router
// (main.js, listening for popstate) mount the page.

/** Go to a page of the client. */
export function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  window.dispatchEvent(new PopStateEvent("popstate"));
  window.scrollTo(0, 0);
}
