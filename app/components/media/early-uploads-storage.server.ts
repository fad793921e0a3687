// What the early uploader (early-uploads.server.ts) stores, in the places and shapes the app uses, so
// either can go on with what the other began: the upload store (upload-store.ts), the upload's
// address under the file's fingerprint as tus-js-client stores it ("tus::<fingerprint>::<n>", see
// upload-fingerprint.ts), and the file itself among the browser's kept files (kept-files.ts).
// Function declarations, written into the early uploader's own scope; an item is one file it sends:
// { form, file, words, print (its fingerprint), sent }.

import { KEPT_FILES_DATABASE, KEPT_FILES_STORE } from "~/lib/browser/kept-files";
import { UPLOAD_STORE_KEY } from "~/lib/browser/upload-store";

export const EARLY_UPLOADS_STORAGE = `
  function read() {
    try {
      var shape = JSON.parse(localStorage.getItem("${UPLOAD_STORE_KEY}") || "null");
      return shape && Array.isArray(shape.uploads) ? shape : { uploadToken: null, uploads: [] };
    } catch (error) {
      return { uploadToken: null, uploads: [] };
    }
  }
  function write(shape) {
    try {
      localStorage.setItem("${UPLOAD_STORE_KEY}", JSON.stringify(shape));
    } catch (error) {}
  }
  function token() {
    var shape = read();
    if (!shape.uploadToken) {
      var bytes = new Uint8Array(32);
      crypto.getRandomValues(bytes);
      shape.uploadToken = btoa(String.fromCharCode.apply(null, bytes)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
      write(shape);
    }
    return shape.uploadToken;
  }
  function state(item, value) {
    var shape = read();
    var others = shape.uploads.filter(function (upload) {
      return upload.fingerprint !== item.print;
    });
    if (value) {
      others.push({ fingerprint: item.print, eventUuid: item.form.getAttribute("data-event"), name: item.file.name, size: item.file.size, type: item.file.type, purpose: field(item.form, "purpose") || "contribution", state: value, bytesSent: item.sent, updatedAt: Date.now() });
    }
    shape.uploads = others.slice(-200);
    write(shape);
  }
  function sentBefore(item) {
    return read().uploads.some(function (upload) {
      return upload.state === "done" && (upload.fingerprint === item.print || upload.pickedFingerprint === item.print);
    });
  }
  function addresses(item) {
    var keys = [];
    for (var i = 0; i < localStorage.length; i++) {
      var key = localStorage.key(i);
      if (key && key.indexOf("tus::" + item.print + "::") === 0) keys.push(key);
    }
    return keys;
  }
  function storedAddress(item) {
    var keys = addresses(item);
    for (var i = 0; i < keys.length; i++) {
      try {
        var stored = JSON.parse(localStorage.getItem(keys[i]));
        if (stored && stored.uploadUrl) return stored.uploadUrl;
      } catch (error) {}
    }
    return null;
  }
  function forgetAddress(item) {
    addresses(item).forEach(function (key) {
      localStorage.removeItem(key);
    });
  }

  function files(work) {
    return new Promise(function (resolve) {
      try {
        var open = indexedDB.open("${KEPT_FILES_DATABASE}", 1);
        open.onupgradeneeded = function () {
          open.result.createObjectStore("${KEPT_FILES_STORE}", { keyPath: "fingerprint" });
        };
        open.onsuccess = function () {
          var database = open.result;
          try {
            var tx = database.transaction("${KEPT_FILES_STORE}", "readwrite");
            work(tx.objectStore("${KEPT_FILES_STORE}"));
            tx.oncomplete = tx.onerror = tx.onabort = function () {
              database.close();
              resolve();
            };
          } catch (error) {
            database.close();
            resolve();
          }
        };
        open.onerror = open.onblocked = function () {
          resolve();
        };
      } catch (error) {
        resolve();
      }
    });
  }
  function keep(item) {
    return files(function (store) {
      store.put({ fingerprint: item.print, eventUuid: item.form.getAttribute("data-event"), purpose: field(item.form, "purpose") || "contribution", contributorName: item.words.contributorName, caption: item.words.caption, file: item.file, keptAt: Date.now() });
    });
  }
  function release(item) {
    return files(function (store) {
      store.delete(item.print);
    });
  }
`;
