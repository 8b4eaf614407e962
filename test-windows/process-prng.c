/*
 * A stand-in for Windows' bcryptprimitives.dll, for the Wine test only (npm run
 * test:windows builds it with mingw-w64 into the test's own Wine prefix; it is never part
 * of the build or of dist/).
 *
 * Bun's Windows runtime imports ProcessPrng from bcryptprimitives.dll, which Windows 10
 * and 11 have and Debian's Wine 8.0 does not: without it the loader refuses skrining.exe
 * before it runs (exit code 53). ProcessPrng fills a buffer with random bytes from the
 * system's generator and always succeeds; here the generator is RtlGenRandom (exported
 * by advapi32 as SystemFunction036), which Wine has.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size) {
  while (size > 0) {
    /* RtlGenRandom takes a ULONG length: larger requests are filled in parts. */
    ULONG part = size > 0x40000000 ? 0x40000000 : (ULONG)size;
    if (!SystemFunction036(data, part)) return FALSE;
    data += part;
    size -= part;
  }
  return TRUE;
}
