"""The one game API every game, agent, solver and interface speaks."""
