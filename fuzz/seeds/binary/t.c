/* The source of t.elf (gcc -O0 -nostdlib -static -fno-pie -no-pie -o t.elf t.c), t.o (-c), t-stripped.elf (strip) and t.exe (x86_64-w64-mingw32-gcc -O0 -nostdlib -e _start). As a seed it is one more file that is no binary. */
void Main_leak_info(void) {}
void Main_keep_info(void) { Main_leak_info(); }
void base_GHCziBase_zdfMonadIO_info(void) {}
void _start(void) { Main_keep_info(); base_GHCziBase_zdfMonadIO_info(); for (;;) {} }
