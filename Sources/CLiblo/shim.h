#ifndef CROSSPOINT_CLIBLO_SHIM_H
#define CROSSPOINT_CLIBLO_SHIM_H
#include <lo/lo.h>
#endif
