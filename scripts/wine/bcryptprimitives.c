/*
 * bcryptprimitives.dll shim for Debian's Wine 8.0, which lacks the DLL.
 *
 * Go >= 1.22 Windows binaries call ProcessPrng from bcryptprimitives.dll at
 * start-up (runtime.loadOptionalSyscalls) and die without it. Later Wine
 * versions implement ProcessPrng the same way: loop over RtlGenRandom.
 * Used only by scripts/wine-test.sh; never shipped.
 */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len) {
		ULONG n = len > 0x7fffffff ? 0x7fffffff : (ULONG)len;
		if (!RtlGenRandom(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
