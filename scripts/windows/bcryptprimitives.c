/* A stand-in for Windows' bcryptprimitives.dll, for running hp2ps.exe under Wine 8.0
 * (Debian 12), which has no such DLL. Rust's standard library (1.78 on) imports
 * ProcessPrng from it for its random numbers (HashMap keys), so the program cannot
 * start without it. ProcessPrng fills a buffer with random bytes and cannot fail; here
 * it asks advapi32's RtlGenRandom (SystemFunction036), which Wine has, in pieces that
 * fit its ULONG length. Only scripts/windows-wine.sh uses it: it is never shipped, and
 * real Windows (8.1 and later) and Wine 9 have the DLL itself. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG piece = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, piece)) {
            return FALSE;
        }
        data += piece;
        length -= piece;
    }
    return TRUE;
}
