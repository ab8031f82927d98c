"""Korean hwatu games on the shared capture mechanic: Hato / Min-hwatu (points) and Go-Stop / Matgo."""
