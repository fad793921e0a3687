// The contribution form's early uploader: an inline script written just before the form
// (contribution-form.tsx), with the response's CSP nonce. Only the server writes it into the page:
// the browser's copy of this module is empty, so the app's JavaScript does not carry it a second
// time. docs/decisions/050-a-press-on-a-bad-link.md says why it exists.
//
// It listens for the form's submit on the document, so it holds a press however early it comes: the
// form need not have been read yet when it runs. A press with files picked, before the app has
// started (the form then carries data-ready), is held: the files and the words typed are taken, the
// form says "Getting ready to send…" (data-waiting). When the app starts it claims what is held
// (early-uploads.ts) and sends it as usual. Should it not have started within EARLY_TAKE_OVER_MS
// (its scripts cut off by the link, the page itself cut short), this script sends the held files
// itself, over tus as the app does, one after another: it creates the upload, sends it in chunks,
// and after a cut asks the server for its offset and goes on from there, after a growing delay or
// at once when the browser is back online. Each file has a card in the form, as the app's, saying
// what is happening ("Uploading 40%", "Waiting for signal", "Uploaded ✓", or the server's reason for
// refusing it), with Cancel.
//
// It stores what the app stores, in the same places and shapes, so either can go on with what the
// other began: the upload's address under the file's fingerprint, as tus-js-client stores it
// (upload-fingerprint.ts); the upload's state in the upload store (upload-store.ts); the file
// itself in the browser's kept files (kept-files.ts); and it holds the upload's Web Lock while it
// sends (sending-files.ts). A page opened again therefore sends on what it began, and a file picked
// again goes on from the server's offset instead of being sent twice.
//
// It stands aside for a submit without files (words alone post as before) and in a browser that
// cannot run the app's modules; with JavaScript off the form posts as it always did.

import { UPLOAD_ENDPOINT } from "~/lib/browser/upload-fingerprint";
import { EARLY_TAKE_OVER_MS, EARLY_UPLOADS_GLOBAL } from "./early-uploads";
import { EARLY_UPLOADS_CARDS } from "./early-uploads-cards.server";
import { EARLY_UPLOADS_STORAGE } from "./early-uploads-storage.server";
import { EARLY_UPLOADS_TUS } from "./early-uploads-tus.server";
import { UPLOAD_LOCK_PREFIX } from "./sending-files";

/**
 * Plain JavaScript of 2017 (what every browser that runs modules reads): no optional chaining, no
 * `??`. The storage, the requests and the cards are functions of their own modules, written into
 * this one scope.
 */
const READABLE = `(function () {
  if (window.${EARLY_UPLOADS_GLOBAL} || !("noModule" in document.createElement("script"))) return;
  var DELAYS = [1000, 3000, 5000, 10000, 20000, 30000, 60000];
  var held = [];
  var queue = [];
  var takeOver = 0;
  var running = false;
  var active = null;
  var wake = null;

  function isForm(form) {
    return !!form && form.nodeName === "FORM" && form.hasAttribute("data-early-uploads");
  }
  function field(form, name) {
    var element = form.elements.namedItem(name);
    return element && element.value ? String(element.value) : "";
  }
  function wordsOf(form) {
    return { contributorName: field(form, "contributorName"), caption: field(form, "caption") };
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!isForm(form) || form.hasAttribute("data-ready")) return;
    var input = form.querySelector("input[type=file]");
    var files = input && input.files ? Array.prototype.slice.call(input.files) : [];
    if (!files.length) return;
    event.preventDefault();
    held.push({ form: form, files: files, words: wordsOf(form) });
    input.value = "";
    form.setAttribute("data-waiting", "");
    if (!takeOver) takeOver = setTimeout(takeOverHeld, ${EARLY_TAKE_OVER_MS});
  }, true);

  function takeOverHeld() {
    takeOver = 0;
    if (held.length && held[0].form.hasAttribute("data-ready")) return;
    held.splice(0).forEach(function (press) {
      press.form.removeAttribute("data-waiting");
      send(press.form, press.files, press.words);
    });
  }
  function claim() {
    clearTimeout(takeOver);
    takeOver = 0;
    return held.splice(0).map(function (press) {
      press.form.removeAttribute("data-waiting");
      return { files: press.files, words: press.words };
    });
  }

  function fingerprint(file) {
    return ["tus-br", file.name, file.type, file.size, file.lastModified, "${UPLOAD_ENDPOINT}"].join("-");
  }
  function has(print) {
    return queue.some(function (item) {
      return item.print === print && item.state !== "cancelled" && item.state !== "refused";
    });
  }
  function send(form, files, words) {
    files.forEach(function (file) {
      var print = fingerprint(file);
      if (has(print)) return;
      var item = { form: form, file: file, words: words, print: print, state: "preparing", sent: 0, url: null };
      item.card = card(item);
      queue.push(item);
    });
    run();
  }
  async function run() {
    if (running) return;
    running = true;
    for (var i = 0; i < queue.length; i++) {
      if (queue[i].state === "preparing") await locked(queue[i]);
    }
    running = false;
  }

  function pause(ms) {
    return new Promise(function (resolve) {
      var timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  }
  window.addEventListener("online", function () {
    if (wake) wake();
  });
  window.addEventListener("offline", function () {
    if (active && active.xhr) active.xhr.abort();
  });

  function locked(item) {
    var locks = navigator.locks;
    var name = "${UPLOAD_LOCK_PREFIX}" + item.print;
    if (!locks) return upload(item);
    return locks.request(name, { ifAvailable: true }, function (lock) {
      if (lock) return upload(item);
      show(item, "elsewhere");
      return locks.request(name, function () {
        return upload(item);
      });
    }).catch(function () {
      return upload(item);
    });
  }
  async function upload(item) {
    if (item.state === "cancelled") return;
    if (sentBefore(item)) {
      item.sent = item.file.size;
      show(item, "done", "You sent this file earlier: it is not sent again.");
      return;
    }
    active = item;
    show(item, "uploading");
    await keep(item);
    state(item, "uploading");
    var failures = 0;
    var known = 0;
    for (;;) {
      if (item.state === "cancelled") return;
      try {
        var offset = 0;
        item.url = item.url || storedAddress(item);
        if (!item.url) item.url = await create(item);
        else offset = await offsetOf(item);
        if (offset === null) {
          item.url = null;
          forgetAddress(item);
          continue;
        }
        if (offset > known) failures = 0;
        known = offset;
        item.sent = offset;
        show(item, "uploading");
        while (offset !== null && offset < item.file.size) {
          offset = await patch(item, offset);
          if (offset !== null) known = item.sent = offset;
          failures = 0;
        }
        if (offset === null) {
          item.url = null;
          forgetAddress(item);
          await pause(DELAYS[Math.min(failures++, DELAYS.length - 1)]);
          continue;
        }
        item.sent = item.file.size;
        show(item, "done");
        state(item, "done");
        forgetAddress(item);
        await release(item);
        return;
      } catch (error) {
        if (item.state === "cancelled") return;
        if (error.refused) {
          show(item, "refused", error.message);
          state(item, "failed");
          forgetAddress(item);
          await release(item);
          return;
        }
        show(item, "paused");
        await pause(DELAYS[Math.min(failures++, DELAYS.length - 1)]);
      }
    }
  }
  function cancel(item) {
    var url = item.url;
    item.state = "cancelled";
    if (item.card.parentNode) item.card.parentNode.removeChild(item.card);
    if (item.xhr) item.xhr.abort();
    if (wake && active === item) wake();
    state(item, null);
    forgetAddress(item);
    release(item);
    if (url) request({}, "DELETE", url, {}).catch(function () {});
  }

${EARLY_UPLOADS_STORAGE}
${EARLY_UPLOADS_TUS}
${EARLY_UPLOADS_CARDS}
  window.${EARLY_UPLOADS_GLOBAL} = { claim: claim, send: send, has: has };
})();`;

// Indentation only: the lines themselves stay, so no statement depends on where a line ends.
export const EARLY_UPLOADS_SCRIPT = READABLE.replace(/\n\s*/g, "\n");
