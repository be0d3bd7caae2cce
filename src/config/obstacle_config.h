#pragma once
// The shot keys of the collision subsystem: the top-level `obstacles` array and `collision` object (schema and
// reading). Declared here so shot_schema.cpp and shot.cpp need only one line each.
#include "config/schema.h"
#include "config/shot.h"

namespace adacloth {

config::Field obstaclesSchema();
config::Field collisionSchema();

// Fills shot.obstacles and shot.collision from the resolved shot JSON. InputError on a bad value that the schema
// cannot express (duplicate names, a pattern without a number conversion).
void readCollisionConfig(Shot& shot, const config::Json& resolved);

}  // namespace adacloth
