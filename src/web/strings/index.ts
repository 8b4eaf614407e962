// Every text the interface shows, in Indonesian, in one module: the shared parts here,
// each area's own texts in its file.
export { activation, common, errors, sentence, signIn } from "./common";
export { student } from "./mahasiswa";
export { staff } from "./dosen";
export { privacy } from "./privasi";
export { consoleClosedTitle, consoleLink, passwordChange } from "./account";
