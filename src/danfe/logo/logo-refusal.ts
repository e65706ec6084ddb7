/**
 * Why a logo cannot be stored or printed, worded to follow the field name for the API's details
 * ("danfeLogo" + " is 5000x5000 pixels; the limit is ..."): says what is wrong and what to do.
 */
export class LogoRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogoRefusal';
  }
}
