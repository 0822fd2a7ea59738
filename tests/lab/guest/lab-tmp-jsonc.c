#include <stdio.h>
#include <json-c/json.h>
const char *pmu_version(void);
int main(void)
{
	json_object *o = json_tokener_parse("{\"a\": [1, 2.5, \"x\"]}");
	if (!o) { printf("FAIL: json parse\n"); return 1; }
	printf("json: %s, libpmu %s\n", json_object_to_json_string(o), pmu_version());
	json_object_put(o);
	return 0;
}
