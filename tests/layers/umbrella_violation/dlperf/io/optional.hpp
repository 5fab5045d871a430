// Optional (io/): exempt, not reached and not named.
#pragma once
