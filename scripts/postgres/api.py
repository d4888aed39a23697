#!/usr/bin/env python3
"""The arena's API from the shell, for the PostgreSQL tests (standard library only).

  api.py BASE signup NAME PASSWORD        a new account: prints its API token
  api.py BASE token NAME PASSWORD         a token for an existing account
  api.py BASE submit TOKEN HILL FILE      submits FILE (.robot) under its stem: prints the id
  api.py BASE get PATH                    prints the body of a GET (status 200 expected)
"""
import json
import os
import sys
import urllib.error
import urllib.request


def call(base, method, path, token=None, body=None, expect=200):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            status, text = answer.status, answer.read()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read()
    if status != expect:
        sys.exit(f"{method} {path}: {status} (expected {expect}): {text[:300]!r}")
    return text


def main(argv):
    base, verb, *rest = argv
    if verb in ("signup", "token"):
        name, password = rest
        path, expect = ("/api/v1/accounts", 201) if verb == "signup" else ("/api/v1/tokens", 201)
        text = call(base, "POST", path, body={"name": name, "password": password}, expect=expect)
        print(json.loads(text)["token"])
    elif verb == "submit":
        token, hill, file = rest
        name = os.path.splitext(os.path.basename(file))[0]
        with open(file, encoding="utf-8") as f:
            source = f.read()
        text = call(base, "POST", f"/api/v1/hills/{hill}/programs", token,
                    {"name": name, "source": source}, expect=202)
        print(json.loads(text)["id"])
    elif verb == "get":
        (path,) = rest
        sys.stdout.buffer.write(call(base, "GET", path))
    else:
        sys.exit(f"unknown verb {verb}")


if __name__ == "__main__":
    main(sys.argv[1:])
