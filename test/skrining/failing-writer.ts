// A writer thread that opens and then fails at its first job, as a defect in it would (writer.test.ts).
declare var self: Worker;

self.onmessage = ({ data }: MessageEvent<{ setup?: unknown; jobs?: unknown }>) => {
  if (data.setup) postMessage({ ready: true });
  else if (data.jobs) throw new Error("cacat di utas penulis");
};
