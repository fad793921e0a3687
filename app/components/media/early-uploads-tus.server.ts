// The early uploader's requests (early-uploads.server.ts): tus 1.0 as the app's upload client speaks
// it (upload-client.ts), with XMLHttpRequest for its upload progress. A request that moves no byte
// for STALLED_MS is given up (a link that hangs rather than drops). A refusal (a 4xx answer, save
// tus's 409 and 423 on a chunk) is thrown with the server's words and `refused` set; anything else
// thrown is the network's, and is tried again. Function declarations, written into the early
// uploader's own scope; an item is one file it sends.

import { FIRST_CHUNK_BYTES } from "~/lib/browser/upload-chunk-size";
import { UPLOAD_ENDPOINT } from "~/lib/browser/upload-fingerprint";

/** A request that moves no byte for this long is given up and tried again. */
const STALLED_MS = 30_000;

export const EARLY_UPLOADS_TUS = `
  function request(item, method, url, headers, body, progress) {
    return new Promise(function (resolve, reject) {
      var xhr = new XMLHttpRequest();
      var stall = 0;
      function watch() {
        clearTimeout(stall);
        stall = setTimeout(function () {
          xhr.abort();
        }, ${STALLED_MS});
      }
      function failed() {
        clearTimeout(stall);
        reject(new Error("network"));
      }
      xhr.open(method, url);
      xhr.setRequestHeader("Tus-Resumable", "1.0.0");
      // An upload's requests are its uploader's alone: the server asks for the token it was made with.
      xhr.setRequestHeader("X-Upload-Token", token());
      Object.keys(headers).forEach(function (name) {
        xhr.setRequestHeader(name, headers[name]);
      });
      xhr.onload = function () {
        clearTimeout(stall);
        resolve(xhr);
      };
      xhr.onerror = xhr.onabort = xhr.ontimeout = failed;
      if (progress) {
        xhr.upload.onprogress = function (event) {
          watch();
          progress(event.loaded);
        };
      }
      item.xhr = xhr;
      watch();
      xhr.send(body || null);
    });
  }
  function refusal(xhr) {
    var message = "The server refused this file.";
    try {
      var parsed = JSON.parse(xhr.responseText);
      if (parsed && parsed.error && parsed.error.message) message = parsed.error.message;
    } catch (error) {}
    var refused = new Error(message);
    refused.refused = true;
    return refused;
  }
  function answered(xhr, creating) {
    var conflict = !creating && (xhr.status === 409 || xhr.status === 423);
    if (xhr.status >= 400 && xhr.status < 500 && !conflict) throw refusal(xhr);
    throw new Error("network");
  }
  function base64(value) {
    return btoa(unescape(encodeURIComponent(value)));
  }
  async function create(item) {
    var form = item.form;
    var meta = { eventUuid: form.getAttribute("data-event"), filename: item.file.name, filetype: item.file.type, contributorName: item.words.contributorName, caption: item.words.caption, purpose: field(form, "purpose") || "contribution", uploadToken: token() };
    if (field(form, "invite")) meta.invite = field(form, "invite");
    if (field(form, "privateKey")) meta.privateKey = field(form, "privateKey");
    var encoded = Object.keys(meta).map(function (key) {
      return key + " " + base64(meta[key]);
    }).join(",");
    var xhr = await request(item, "POST", "${UPLOAD_ENDPOINT}", { "Upload-Length": String(item.file.size), "Upload-Metadata": encoded });
    if (xhr.status !== 201 || !xhr.getResponseHeader("Location")) answered(xhr, true);
    var url = new URL(xhr.getResponseHeader("Location"), location.href).href;
    forgetAddress(item);
    try {
      localStorage.setItem("tus::" + item.print + "::" + Math.round(Math.random() * 1e12), JSON.stringify({ size: item.file.size, metadata: meta, creationTime: String(new Date()), uploadUrl: url }));
    } catch (error) {}
    return url;
  }
  async function offsetOf(item) {
    var xhr = await request(item, "HEAD", item.url, {});
    if (xhr.status === 200) return Number(xhr.getResponseHeader("Upload-Offset"));
    if (xhr.status === 403 || xhr.status === 404 || xhr.status === 410) return null;
    return answered(xhr);
  }
  async function patch(item, offset) {
    var chunk = item.file.slice(offset, offset + ${FIRST_CHUNK_BYTES});
    var xhr = await request(item, "PATCH", item.url, { "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" }, chunk, function (loaded) {
      item.sent = offset + loaded;
      show(item, "uploading");
    });
    if (xhr.status === 204) return Number(xhr.getResponseHeader("Upload-Offset"));
    if (xhr.status === 404 || xhr.status === 410) return null;
    return answered(xhr);
  }
`;
