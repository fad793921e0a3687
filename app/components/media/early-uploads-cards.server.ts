// The early uploader's cards (early-uploads.server.ts): one a file, in the form's
// [data-early-uploads-list] (which React never writes into), with the markup and words of the app's
// own (upload-list.tsx), so a person sees the same card whichever sent the file. Function
// declarations, written into the early uploader's own scope; `cancel` is the uploader's.

export const EARLY_UPLOADS_CARDS = `
  var TEXT = { preparing: "Preparing…", uploading: "Uploading", paused: "Waiting for signal", elsewhere: "Being sent from another tab", done: "Uploaded ✓", refused: "Not sent" };
  function element(name, className, text) {
    var made = document.createElement(name);
    if (className) made.className = className;
    if (text) made.textContent = text;
    return made;
  }
  function card(item) {
    var holder = item.form.querySelector("[data-early-uploads-list]");
    if (!holder) {
      holder = element("div", "early-uploads");
      item.form.appendChild(holder);
    }
    var list = holder.querySelector("ul");
    if (!list) {
      var section = element("section", "upload-list");
      section.setAttribute("aria-live", "polite");
      list = element("ul");
      section.appendChild(list);
      holder.appendChild(section);
    }
    var li = element("li");
    var head = element("div", "upload-item__head");
    head.appendChild(element("span", "upload-item__name", item.file.name));
    head.appendChild(element("span", "upload-item__state"));
    li.appendChild(head);
    var bar = element("progress");
    bar.max = Math.max(item.file.size, 1);
    bar.setAttribute("aria-label", "Progress of " + item.file.name);
    li.appendChild(bar);
    li.appendChild(element("p"));
    var row = element("div", "row");
    var button = element("button", "button--link button", "Cancel");
    button.type = "button";
    button.addEventListener("click", function () {
      cancel(item);
    });
    row.appendChild(button);
    li.appendChild(row);
    list.appendChild(li);
    item.card = li;
    show(item, "preparing");
    return li;
  }
  function show(item, value, note) {
    if (item.state === "cancelled") return;
    item.state = value;
    var li = item.card;
    var going = value === "uploading" || value === "paused";
    li.className = "upload-item upload-item--" + value;
    li.querySelector(".upload-item__state").textContent = TEXT[value] + (going ? " " + Math.round((item.sent / Math.max(item.file.size, 1)) * 100) + "%" : "");
    var bar = li.querySelector("progress");
    bar.hidden = value === "refused";
    bar.value = item.sent;
    var words = li.querySelector("p");
    words.className = value === "refused" ? "field-error" : "field-hint";
    words.textContent = note || "";
    words.hidden = !note;
    li.querySelector(".row").style.display = value === "done" || value === "refused" ? "none" : "";
  }
`;
