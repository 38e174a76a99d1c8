"""Play under hidden information: what a seat may know (its public view), worlds consistent
with it, and bots that decide from it alone (installed as `dekal.bots`)."""
