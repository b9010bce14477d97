// epoll(7) for the daemon's event loops (Sources/ClarityDaemon/Readiness.swift): glibc's module
// for Swift leaves <sys/epoll.h> out. Empty on other systems, which use poll(2).
#ifndef C_EVENT_POLL_H
#define C_EVENT_POLL_H

#if defined(__linux__)
#include <sys/epoll.h>
#endif

#endif
