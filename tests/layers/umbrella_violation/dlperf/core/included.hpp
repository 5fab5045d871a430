// Reached from the umbrella.
#pragma once
