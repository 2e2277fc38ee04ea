"""The live classroom: rooms a teacher opens and students join from their phones (each phone on its own page,
asking the app's card route for news), six kinds of activity, lessons, and the class's answers added up.
``rules`` and ``joining`` hold the rules of rooms and join links, ``kinds`` the activity kinds (one module each) and
``results`` what a class's answers come to (numbers from ndcg_core), ``lessons`` the lesson files, ``service`` what
the phones and their routes call; ``storage`` keeps everything in SQLite or PostgreSQL through SQLAlchemy, one
repository per concern (rooms, students, answers, lessons) over one engine. No Streamlit here."""
