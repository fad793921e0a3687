// A press of Send before the page's script has started. The plain multipart post it would make
// cannot survive a dropping link, so this small script, inline in the page right after the
// contribution form, holds the submit and marks the form "waiting" (the form shows "Getting ready to
// send…"); once the app has started it takes the files from the file input and sends them in
// resumable chunks (contribution-form.tsx). It stands aside when the app has started (the form
// carries data-ready), when no file is picked (words alone post as before), and in a browser that
// cannot run the app's modules. Should the app not start within a minute, the form posts as it
// would without JavaScript. With JavaScript off none of this runs.

/** How long a held press waits for the app before the plain post goes ahead. */
const EARLY_PRESS_WAIT_MS = 60_000;

export const EARLY_PRESS_SCRIPT = `(function () {
  var script = document.currentScript;
  var form = script && script.previousElementSibling;
  if (!form || form.tagName !== "FORM" || !("noModule" in script)) return;
  var timer = 0;
  form.addEventListener("submit", function (event) {
    if (form.hasAttribute("data-ready")) return;
    var input = form.querySelector("input[type=file]");
    if (!input || !input.files || !input.files.length) return;
    event.preventDefault();
    form.setAttribute("data-waiting", "");
    if (timer) return;
    timer = setTimeout(function () {
      if (form.hasAttribute("data-ready") || !form.hasAttribute("data-waiting")) return;
      form.removeAttribute("data-waiting");
      HTMLFormElement.prototype.submit.call(form);
    }, ${EARLY_PRESS_WAIT_MS});
  });
})();`;
