// Reads a File's slices for a worker that parses them (src/slice_feed.rs),
// on this worker's own thread. In Chromium a Blob's bytes reach an
// ArrayBuffer through tasks of the thread that asked for them, so a worker
// busy parsing one slice would not receive the next one meanwhile: here,
// the next slices arrive while the parser works.
//
// Messages in: { file, slice, ahead } starts reading `file` in slices of
// `slice` bytes, at most `ahead` of them handed over and not yet taken;
// { took: true } says one was taken. Messages out: { at, buffer } (the
// buffer transferred) for each slice in order, or { at, error } once.
let file = null;
let slice = 0;
let ahead = 1;
let next = 0;
let handed = 0;
let reading = false;

async function pump() {
  if (reading) return;
  reading = true;
  while (file && next < file.size && handed < ahead) {
    const at = next;
    next = Math.min(at + slice, file.size);
    handed += 1;
    try {
      const buffer = await file.slice(at, next).arrayBuffer();
      postMessage({ at, buffer }, [buffer]);
    } catch (e) {
      postMessage({ at, error: String(e) });
      file = null;
    }
  }
  reading = false;
}

onmessage = (e) => {
  const m = e.data;
  if (m.file) {
    ({ file, slice, ahead } = m);
    next = 0;
    handed = 0;
  } else if (m.took) {
    handed -= 1;
  }
  pump();
};
