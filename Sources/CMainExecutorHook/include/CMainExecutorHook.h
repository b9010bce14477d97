#ifndef CMAINEXECUTORHOOK_H
#define CMAINEXECUTORHOOK_H

#include <stdint.h>

/// Makes the Swift runtime's main executor, on the calling thread only, the executor given by
/// its two words (`identity`, `implementation`: an `UnownedSerialExecutor`'s bits); zeros put
/// the process's own main executor back. Returns 0 when the runtime has no
/// `swift_task_getMainExecutor_hook`.
int clarity_override_main_executor(uintptr_t identity, uintptr_t implementation);

#endif
