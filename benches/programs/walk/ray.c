/* Concolic-walk benchmark: a ray-sphere intersection test (sphere of radius 1 at (0, 0, 5)).
   Returns 1 for a ray that grazes the sphere (tangent within 1e-9), other values for the other
   cases. */
#include <math.h>

int ray_sphere(double ox, double oy, double dx, double dy, double dz) {
    if (!(ox > -3 && ox < 3 && oy > -3 && oy < 3)) return 0;
    if (!(dx > -1 && dx < 1 && dy > -1 && dy < 1 && dz > 0 && dz < 1)) return 0;
    double len = sqrt(dx * dx + dy * dy + dz * dz);
    if (len < 1e-3) return 0;
    dx /= len;
    dy /= len;
    dz /= len;
    double lz = -5;                      /* origin (ox, oy, 0) minus the centre */
    double b = dx * ox + dy * oy + dz * lz;
    double c = ox * ox + oy * oy + lz * lz - 1;
    double disc = b * b - c;
    if (disc < 0) return 2;              /* miss */
    if (disc < 1e-9) return 1;           /* graze */
    double t = -b - sqrt(disc);
    if (t < 0) return 3;                 /* behind */
    if (t < 4.2) return 4;               /* hits the near side steeply */
    return 5;
}
