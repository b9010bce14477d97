#!/usr/bin/env python3
"""Merges the JUnit reports of a sharded exploration (`clarityctl explore … --shard i/n --junit
FILE`, one per CI job) into one, and names, for each scenario, the lowest failing schedule index
across the shards with its replay token: the failure a single run would have reported first.

    scripts/merge-junit.py OUT.xml IN1.xml IN2.xml …

A scenario a shard could not explore (an `<error>`) stays an errored case. Exit status 1 when a
merged test case failed or erred, 0 otherwise. Python 3 standard library only.
"""
import sys
import xml.etree.ElementTree as ET


def main(out, inputs):
    cases = {}
    for path in inputs:
        for case in ET.parse(path).getroot().iter("testcase"):
            name = case.get("name")
            properties = {p.get("name"): p.get("value") for p in case.iter("property")}
            failure = case.find("failure")
            entry = cases.setdefault(name, {"time": 0.0, "schedules": 0, "failed": 0, "lowest": None, "failure": None,
                                            "error": None})
            if case.find("error") is not None and entry["error"] is None:
                entry["error"] = case.find("error")
            entry["time"] += float(case.get("time", "0"))
            entry["schedules"] += int(properties.get("schedules", "0") or 0)
            entry["failed"] += int(properties.get("failed", "0") or 0)
            index = properties.get("scheduleIndex")
            if index is not None and (entry["lowest"] is None or int(index) < entry["lowest"][0]):
                entry["lowest"] = (int(index), properties.get("schedule", ""))
            if failure is not None and (entry["failure"] is None or (index is not None and entry["lowest"][0] == int(index))):
                entry["failure"] = failure
    root = ET.Element("testsuites")
    failures = sum(1 for entry in cases.values() if entry["failure"] is not None)
    errors = sum(1 for entry in cases.values() if entry["error"] is not None)
    suite = ET.SubElement(root, "testsuite", name="clarityd scenarios", tests=str(len(cases)), failures=str(failures),
                          errors=str(errors), time="%.3f" % sum(entry["time"] for entry in cases.values()))
    for name, entry in sorted(cases.items()):
        case = ET.SubElement(suite, "testcase", classname="scenarios", name=name, time="%.3f" % entry["time"])
        properties = ET.SubElement(case, "properties")
        for key in ("schedules", "failed"):
            ET.SubElement(properties, "property", name=key, value=str(entry[key]))
        if entry["lowest"] is not None:
            ET.SubElement(properties, "property", name="scheduleIndex", value=str(entry["lowest"][0]))
            ET.SubElement(properties, "property", name="schedule", value=entry["lowest"][1])
            print("%s: lowest failing schedule %d, replay with --schedule %s" % (name, entry["lowest"][0], entry["lowest"][1]))
        if entry["failure"] is not None:
            case.append(entry["failure"])
        if entry["error"] is not None:
            case.append(entry["error"])
    ET.ElementTree(root).write(out, encoding="UTF-8", xml_declaration=True)
    return 1 if failures or errors else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
