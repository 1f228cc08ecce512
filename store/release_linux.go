package store

import "syscall"

// releaseMapped tells the kernel the process no longer needs the mapped
// pages from addr on: for a shared map of a file, MADV_DONTNEED unmaps
// them and keeps their contents in the file cache.
func releaseMapped(addr, size uintptr) error {
	if size == 0 {
		return nil
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, addr, size, syscall.MADV_DONTNEED); errno != 0 {
		return errno
	}
	return nil
}
