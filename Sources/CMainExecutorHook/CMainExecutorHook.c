#include "CMainExecutorHook.h"

#include <dlfcn.h>
#include <pthread.h>

typedef struct {
    uintptr_t identity;
    uintptr_t implementation;
} SerialExecutorRef;

typedef SerialExecutorRef (*GetMainExecutorOriginal)(void);
typedef SerialExecutorRef (*GetMainExecutorHook)(GetMainExecutorOriginal original);

static _Thread_local SerialExecutorRef override;

static SerialExecutorRef getMainExecutor(GetMainExecutorOriginal original) {
    if (override.identity != 0) return override;
    return original();
}

static GetMainExecutorHook *foundSlot;

static void findSlot(void) {
    foundSlot = (GetMainExecutorHook *)dlsym(RTLD_DEFAULT, "swift_task_getMainExecutor_hook");
    if (foundSlot) *foundSlot = getMainExecutor;
}

int clarity_override_main_executor(uintptr_t identity, uintptr_t implementation) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, findSlot);
    if (!foundSlot) return 0;
    override.identity = identity;
    override.implementation = implementation;
    return 1;
}
