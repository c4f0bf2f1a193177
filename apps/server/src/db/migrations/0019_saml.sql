CREATE TABLE "saml_assertions" (
	"issuer" text NOT NULL,
	"assertion_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saml_assertions_issuer_assertion_id_pk" PRIMARY KEY("issuer","assertion_id")
);
--> statement-breakpoint
CREATE INDEX "saml_assertions_expires_at_idx" ON "saml_assertions" USING btree ("expires_at");