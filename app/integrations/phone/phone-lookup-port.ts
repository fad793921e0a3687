export interface PhoneLookup {
  valid: boolean;
  /** E.164 when valid. */
  phoneNumber: string | null;
  countryCode: string | null;
  /** "mobile", "landline", "voip"... when the provider knows; null otherwise. */
  lineType: string | null;
}

export interface PhoneLookupProvider {
  readonly name: string;
  lookup(e164: string): Promise<PhoneLookup>;
}
